// Rate limits shared through PostgreSQL: two limiters with their own pools (as two server
// processes would have) on one database enforce one limit per key, counted atomically.
import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { rateLimiter } from "../../server/middleware/rate-limit.js";
import { PostgresRateLimitStore } from "../../server/store/postgres/rate-limit-store.js";
import { unavailable, useDatabase } from "./database.js";

describe.skipIf(unavailable !== undefined)("rate limits shared through PostgreSQL", () => {
  const db = useDatabase();

  it("60 concurrent hits from two pools count 1..60 exactly once each", async () => {
    const pools = [new pg.Pool({ connectionString: db.url, max: 4 }), new pg.Pool({ connectionString: db.url, max: 4 })];
    try {
      const stores = pools.map((pool) => new PostgresRateLimitStore(pool));
      for (const store of stores) store.init({ windowMs: 60_000 } as never);
      const hits = await Promise.all(Array.from({ length: 60 }, (_, i) => stores[i % 2]!.increment("key:same")));
      expect(hits.map((h) => h.totalHits).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      expect(new Set(hits.map((h) => h.resetTime?.getTime())).size).toBe(1);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it("two servers with limit 5 on one key answer 5 successes between them, then 429s; another key is not affected", async () => {
    const pools: pg.Pool[] = [];
    const servers = await Promise.all(
      [0, 1].map(async () => {
        const pool = new pg.Pool({ connectionString: db.url, max: 4 });
        pools.push(pool);
        const app = express();
        app.use(rateLimiter({ limit: 5, windowMs: 60_000, store: new PostgresRateLimitStore(pool, "shared:") }));
        app.get("/", (_req, res) => void res.send("ok"));
        app.use((error: { status?: number }, _req: Request, res: Response, _next: NextFunction) => void res.status(error.status ?? 500).end());
        const server = app.listen(0, "127.0.0.1");
        await new Promise((resolve) => server.once("listening", resolve));
        return server;
      }),
    );
    try {
      const get = (i: number, key: string) =>
        fetch(`http://127.0.0.1:${(servers[i % 2]!.address() as AddressInfo).port}/`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
      const statuses = await Promise.all(Array.from({ length: 12 }, (_, i) => get(i, "ak_shared_limit")));
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(7);
      expect(await get(0, "ak_other_key")).toBe(200);
      // The database holds a digest of the key, never the key.
      const keys = (await db.pool.query<{ key: string }>("SELECT key FROM rate_limits")).rows.map((r) => r.key).join(" ");
      expect(keys).not.toContain("ak_shared_limit");
    } finally {
      for (const server of servers) server.close();
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });
});
