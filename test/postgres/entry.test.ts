// `npm start` with DATABASE_URL: a database out of reach stops the start with exit 1 and one
// line; a reachable one is migrated and served from, with its rate limits kept in it.
import { describe, expect, it } from "vitest";
import { demo } from "../support/demo.js";
import { loadSeed } from "../../server/seed/load.js";
import { unavailable, useDatabase } from "./database.js";
import { serverProcesses } from "../support/server-process.js";

const start = serverProcesses();

describe("server/main.ts with an unreachable DATABASE_URL", () => {
  it("exits 1 with one line naming the database (never its password) and the reason", async () => {
    // Port 1 on the loopback: nothing listens there, the connection is refused at once.
    const server = start({ DATABASE_URL: "postgres://app:s3cret-password@127.0.0.1:1/authsvc" });
    expect(await server.exited).toBe(1);
    const { stdout, stderr } = server.output();
    expect(stdout).toBe("");
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^Cannot start the reference server: the database at 127\.0\.0\.1:1\/authsvc cannot be used: .*ECONNREFUSED/);
    expect(stderr).not.toContain("s3cret-password");
  }, 30_000);
});

describe.skipIf(unavailable !== undefined)("server/main.ts with DATABASE_URL", () => {
  const db = useDatabase();

  it("serves the database's data, names the store, and counts rate limits in the database", async () => {
    await db.reset(loadSeed());
    const server = start({ DATABASE_URL: db.url, RATE_LIMIT: "3" });
    const url = await server.url;
    expect(server.output().stdout).toContain(`Store: PostgreSQL at 127.0.0.1:${db.cluster.port}/authsvc (DATABASE_URL)`);
    expect(server.output().stdout).toContain(demo.a.apiKey);
    const get = () => fetch(`${url}/webhooks?limit=10&page=1`, { headers: { authorization: `Bearer ${demo.a.apiKey}` } });
    const first = await get();
    expect(first.status).toBe(200);
    expect(((await first.json()) as { result: unknown }).result).toEqual((await db.store.webhooks(demo.a.applicationId, { limit: 10, page: 1 })).result);
    expect([(await get()).status, (await get()).status, (await get()).status]).toEqual([200, 200, 429]);
    const hits = (await db.pool.query<{ hits: number }>("SELECT hits FROM rate_limits")).rows.map((row) => row.hits);
    expect(hits).toEqual([4]);
  }, 30_000);

  it("an empty database is migrated at start and the start-up lines say how to seed it", async () => {
    db.cluster.createDatabase("empty");
    const server = start({ DATABASE_URL: db.cluster.urlOf("empty") });
    await server.url;
    expect(server.output().stdout).toContain("The database holds no application yet: npm run db:seed");
  }, 30_000);
});
