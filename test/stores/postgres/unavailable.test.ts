// The database going away while the store runs: calls answer the 503 problem with
// Retry-After (never an unexpected error), and normal answers come back once it restarts;
// a pool with every connection held makes a call wait its bounded time, then 503.
import { describe, expect, it } from "vitest";
import { loadSeed } from "../../../server/seed/load.js";
import { createPostgresStore } from "../../../server/store/postgres/index.js";
import { retryAfterSeconds } from "../../../server/store/postgres/unavailable.js";
import { callerA, problemOf } from "../../server/operations/harness.js";
import { recordsOfA } from "../../support/demo.js";
import { demo } from "../../support/demo.js";
import { unavailable, useDatabase } from "../../postgres/database.js";
import { startServerProcess } from "../../support/server-process.js";

const widget = recordsOfA.widgets[0]!;
const paging = { limit: 10, page: 1 };

describe.skipIf(unavailable !== undefined)("PostgreSQL unavailable", () => {
  const db = useDatabase();

  it("database stopped: 503 with Retry-After for reads and writes; after restart, normal answers", async () => {
    await db.reset(loadSeed());
    const store = createPostgresStore({ connectionString: db.url, max: 4, connectionTimeoutMillis: 2_000 });
    try {
      const before = structuredClone(await store.widget(callerA.applicationId, widget));
      db.cluster.stopServer();
      try {
        for (const call of [
          () => store.widget(callerA.applicationId, widget),
          () => store.encryptionReports(callerA.applicationId, {}, paging),
          () => store.updateSmsProvider(callerA.applicationId, recordsOfA.smsProviders[1]!, { sort: "UP" }),
          () => store.authenticateBearer("ak_any"),
        ]) {
          const problem = await problemOf(call, "service_unavailable");
          expect(problem.status).toBe(503);
          expect(problem.headers).toEqual({ "Retry-After": String(retryAfterSeconds) });
        }
      } finally {
        db.cluster.startServer();
      }
      expect(await store.widget(callerA.applicationId, widget)).toEqual(before);
      expect((await store.smsProviders(callerA.applicationId)).map((p) => p.id)).toEqual(recordsOfA.smsProviders);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("through HTTP: a server process answers 503 problems with Retry-After while the database is stopped, then normal answers", async () => {
    await db.reset(loadSeed());
    const server = startServerProcess({ DATABASE_URL: db.url, DATABASE_POOL_WAIT_MS: "2000" });
    try {
      const url = await server.url;
      const headers = { authorization: `Bearer ${demo.a.apiKey}`, "content-type": "application/json" };
      const read = () => fetch(`${url}/widgets/${widget}`, { headers });
      const write = () => fetch(`${url}/sms/providers/${recordsOfA.smsProviders[1]!}`, { method: "PUT", headers, body: JSON.stringify({ sort: "UP" }) });
      const before = await read();
      expect(before.status).toBe(200);
      const body = await before.json();
      db.cluster.stopServer();
      try {
        for (const call of [read, write, read]) {
          const response = await call();
          expect(response.status).toBe(503);
          expect(response.headers.get("retry-after")).toBe(String(retryAfterSeconds));
          expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
          expect(await response.json()).toMatchObject({ status: 503, code: "service_unavailable" });
        }
      } finally {
        db.cluster.startServer();
      }
      const after = await read();
      expect(after.status).toBe(200);
      expect(await after.json()).toEqual(body);
      expect((await write()).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("every pooled connection held: a call waits its bounded time, then 503; freed, it answers", async () => {
    const store = createPostgresStore({ connectionString: db.url, max: 1, connectionTimeoutMillis: 300 });
    try {
      const held = await store.pool.connect();
      const started = performance.now();
      await problemOf(() => store.widget(callerA.applicationId, widget), "service_unavailable");
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(250);
      expect(waited).toBeLessThan(3_000);
      held.release();
      expect((await store.widget(callerA.applicationId, widget)).id).toBe(widget);
    } finally {
      await store.close();
    }
  });

  it("a rule problem is not mistaken for an unreachable database", async () => {
    await problemOf(() => db.store.widget(callerA.applicationId, "wdg_000000000000"), "not_found");
  });
});
