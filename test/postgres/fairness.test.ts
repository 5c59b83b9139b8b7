// Fair sharing of one database (docs/postgres.md, Fair sharing): expired rate-limit counters
// are deleted, failed authentication is counted in one statement per failure and exactly
// under concurrency (a counter out of reach refuses the request), the pre-handler work of a
// request is one round trip, a statement past the timeout is a 503 that says so, and one
// application's report statements run one at a time in a process while another's run beside them.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startServer } from "../../server/reference-server.js";
import { loadSeed } from "../../server/seed/load.js";
import { createPostgresStore } from "../../server/store/postgres/index.js";
import { PostgresRateLimitStore } from "../../server/store/postgres/rate-limit-store.js";
import { databaseProblem } from "../../server/store/postgres/unavailable.js";
import { ApiProblem } from "../../server/problems.js";
import { appA, appB } from "../support/demo.js";
import { unavailable, useDatabase } from "./database.js";

describe.skipIf(unavailable !== undefined)("fair sharing on PostgreSQL", () => {
  const db = useDatabase();
  const rows = async () => (await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM rate_limits")).rows[0]!.n;

  it("rate_limits stays bounded: a hit deletes the counters whose window is over, and only those", async () => {
    await db.pool.query("DELETE FROM rate_limits");
    // 300 counters of past windows (one per bogus key ever presented), 2 of the current one.
    await db.pool.query("INSERT INTO rate_limits (key, hits, reset_at) SELECT 'rl:key:old' || i, 1, now() - interval '1 second' FROM generate_series(1, 300) i");
    await db.pool.query("INSERT INTO rate_limits (key, hits, reset_at) VALUES ('fa:live', 3, now() + interval '1 minute')");
    expect(await rows()).toBe(301);
    const store = new PostgresRateLimitStore(db.pool, "rl:", 60_000);
    store.init({ windowMs: 60_000 } as never);
    await store.increment("key:new");
    expect((await db.pool.query<{ key: string }>("SELECT key FROM rate_limits ORDER BY key")).rows.map((r) => r.key)).toEqual(["fa:live", "rl:key:new"]);
    // Within the sweep interval a hit does not sweep again.
    await db.pool.query("INSERT INTO rate_limits (key, hits, reset_at) VALUES ('rl:key:old', 1, now() - interval '1 second')");
    await store.increment("key:new");
    expect(await rows()).toBe(3);
  });

  it("concurrent failures from one address: exactly the limit answered 401, the rest 429; a valid key is served", async () => {
    await db.reset(loadSeed());
    await db.pool.query("DELETE FROM rate_limits");
    const counted = new PostgresRateLimitStore(db.pool, "fa:");
    const server = await startServer({ store: db.store, rateLimit: false, failedAuthLimit: { limit: 5, windowMs: 60_000, store: counted } });
    try {
      const read = (key: string) => fetch(`${server.url}/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
      const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => read(`ak_bogus_${i}`)));
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(25);
      expect((await db.pool.query<{ hits: number }>("SELECT hits FROM rate_limits WHERE key LIKE 'fa:%'")).rows).toEqual([{ hits: 30 }]);
      expect(await read(appA.apiKey)).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("a failure the database cannot count is refused with 503, not answered 401", async () => {
    const gone = new pg.Pool({ connectionString: db.url, max: 1 });
    await gone.end();
    const server = await startServer({
      store: db.store,
      rateLimit: false,
      failedAuthLimit: { limit: 5, windowMs: 60_000, store: new PostgresRateLimitStore(gone, "fa:") },
    });
    try {
      const answer = await fetch(`${server.url}/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization: "Bearer ak_bogus" } });
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("5");
    } finally {
      await server.close();
    }
  });

  it("before the handler, one round trip: the per-key limiter's hit reads the credential too", async () => {
    await db.reset(loadSeed());
    const store = createPostgresStore({ connectionString: db.url, max: 2 });
    const statements: string[] = [];
    const query = store.pool.query.bind(store.pool);
    store.pool.query = ((text: string | { text: string }, ...rest: unknown[]) => {
      statements.push(typeof text === "string" ? text : text.text);
      return (query as (...args: unknown[]) => unknown)(text, ...rest);
    }) as typeof store.pool.query;
    const server = await startServer({
      store,
      rateLimit: { limit: 100, windowMs: 60_000, store: new PostgresRateLimitStore(store.pool, "rl:", 60_000, store.credentialPrefetch) },
      failedAuthLimit: { limit: 100, windowMs: 60_000, store: new PostgresRateLimitStore(store.pool, "fa:", 60_000) },
    });
    try {
      const read = (key: string) => fetch(`${server.url}/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
      await read(appA.apiKey); // the first hit of each store may sweep
      await read("ak_bogus_warm");
      statements.length = 0;
      expect(await read(appA.apiKey)).toBe(200);
      // The hit with the credential, then the handler's own read.
      expect(statements).toHaveLength(2);
      expect(statements[0]).toMatch(/WITH hit AS[\s\S]*credentials/);
      statements.length = 0;
      expect(await read("ak_bogus_1")).toBe(401);
      // The hit with the (absent) credential, then the failure counted: one statement each.
      expect(statements).toHaveLength(2);
    } finally {
      await server.close();
      await store.close();
    }
  });

  it("one application's report statements run one at a time, however many of its requests are in flight; another application's run beside them", async () => {
    await db.reset(loadSeed());
    const store = createPostgresStore({ connectionString: db.url, max: 10 });
    const running = new Map<string, number>();
    const most = new Map<string, number>();
    const started: string[] = [];
    // Every report request has reached the store before any report statement starts (a gate,
    // not a sleep), so without lanes all ten would run at once.
    const requests = { a: 8, b: 2 };
    let entered = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const timeout = setTimeout(open, 20_000);
    const query = store.pool.query.bind(store.pool);
    store.pool.query = (async (statement: { text: string; values: unknown[] } | string, ...rest: unknown[]) => {
      if (typeof statement === "string" || !/encryption_reports/.test(statement.text)) return (query as (...args: unknown[]) => unknown)(statement, ...rest);
      const application = String(statement.values[0]);
      await gate;
      started.push(application);
      running.set(application, (running.get(application) ?? 0) + 1);
      most.set(application, Math.max(most.get(application) ?? 0, running.get(application)!));
      try {
        // Long enough for statements that may overlap to overlap.
        await new Promise((resolve) => setTimeout(resolve, 50));
        return await (query as (...args: unknown[]) => Promise<unknown>)(statement, ...rest);
      } finally {
        running.set(application, running.get(application)! - 1);
      }
    }) as typeof store.pool.query;
    const counted = {
      ...store,
      encryptionReports: (...args: Parameters<typeof store.encryptionReports>) => {
        if (++entered === requests.a + requests.b) open();
        return store.encryptionReports(...args);
      },
    };
    const server = await startServer({ store: counted, rateLimit: false, concurrencyLimit: false, failedAuthLimit: false });
    try {
      const read = (key: string) => fetch(`${server.url}/reports/encryption?page=2999&limit=100`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
      const statuses = await Promise.all([
        ...Array.from({ length: requests.a }, () => read(appA.apiKey)),
        ...Array.from({ length: requests.b }, () => read(appB.apiKey)),
      ]);
      expect(statuses).toEqual(Array(requests.a + requests.b).fill(200));
      expect(Object.fromEntries(most)).toEqual({ [appA.applicationId]: 1, [appB.applicationId]: 1 });
      // B's statements did not wait for A's queue: both ran before A's last one started.
      expect(started.lastIndexOf(appB.applicationId)).toBeLessThan(started.lastIndexOf(appA.applicationId));
    } finally {
      clearTimeout(timeout);
      await server.close();
      await store.close();
    }
  });

  it("a statement past the timeout is cancelled by the database and becomes a 503 that names the timeout", async () => {
    const store = createPostgresStore({ connectionString: db.url, max: 1, statementTimeoutMs: 50 });
    try {
      const error = await store.pool.query("SELECT pg_sleep(1)").catch((caught: unknown) => caught);
      const problem = databaseProblem(error);
      expect(problem).toBeInstanceOf(ApiProblem);
      expect((problem as ApiProblem).status).toBe(503);
      expect((problem as ApiProblem).detail).toMatch(/statement timeout/);
      expect((problem as ApiProblem).headers?.["Retry-After"]).toBe("5");
    } finally {
      await store.close();
    }
  });

  it("bulk loads are not bound by the statement timeout", async () => {
    await db.reset(loadSeed());
    const store = createPostgresStore({ connectionString: db.url, max: 2, statementTimeoutMs: 10 });
    try {
      const { generateReports } = await import("../../bench/scale/generate.js");
      const app = loadSeed().applications[0]!;
      await store.addReports(app.id, generateReports({ count: 5_000, applicationId: app.id, organizationId: app.organization_id }));
      expect((await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM encryption_reports WHERE id LIKE 'rep_0%'")).rows[0]!.n).toBeGreaterThan(4_000);
    } finally {
      await store.close();
    }
  });
});
