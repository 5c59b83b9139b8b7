// Three reference-server processes (server/main.ts with DATABASE_URL) on one database:
// 600 concurrent UP/DOWN/is_default/rename requests spread across them leave positions 1..n
// and exactly one default, every answer a status the document declares for the operation
// (all 200), no rename lost;
// and the per-key rate limit (RATE_LIMIT) and the per-address limit on failed authentication
// (FAILED_AUTH_LIMIT) are each enforced once across the three, not per process.
import { afterAll, describe, expect, it } from "vitest";
import { operation } from "../support/document.js";
import { demo } from "../support/demo.js";
import { loadSeed } from "../../server/seed/load.js";
import { seedWithProviders } from "../server/operations/harness.js";
import { unavailable, useDatabase } from "./database.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

const started: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
});
async function threeServers(env: Record<string, string>): Promise<string[]> {
  const servers = [0, 1, 2].map(() => startServerProcess(env));
  started.push(...servers);
  return Promise.all(servers.map((server) => server.url));
}
const bearer = { authorization: `Bearer ${demo.a.apiKey}` };

describe.skipIf(unavailable !== undefined)("three server processes on one database", () => {
  const db = useDatabase();

  it("600 concurrent provider updates through HTTP: documented statuses, positions 1..n, one default", async () => {
    const n = 5;
    await db.reset(seedWithProviders(n));
    const initial = new Map((await db.store.smsProviders(demo.a.applicationId)).map((provider) => [provider.id, structuredClone(provider)]));
    // Updates of one application run one after another; on a busy machine 600 of them take
    // longer than the default 5 s wait for a connection.
    const urls = await threeServers({ DATABASE_URL: db.url, RATE_LIMIT: "off", DATABASE_POOL_WAIT_MS: "120000" });
    const bodies = [{ sort: "UP" }, { sort: "DOWN" }, { is_default: true }, { name: "Renamed" }];
    const requests = Array.from({ length: 600 }, (_, i) => ({
      url: `${urls[i % 3]}/sms/providers/sms_p${(i % n) + 1}`,
      body: i % 4 === 3 ? { name: `Rename ${i}` } : bodies[i % 4]!,
    }));
    const t0 = performance.now();
    const answers = await Promise.all(
      requests.map(async ({ url, body }) => {
        const response = await fetch(url, { method: "PUT", headers: { ...bearer, "content-type": "application/json" }, body: JSON.stringify(body) });
        await response.arrayBuffer();
        return { status: response.status };
      }),
    );
    const statuses = new Map<number, number>();
    for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    console.log(
      `multi-process: ${answers.length} requests over 3 processes in ${((performance.now() - t0) / 1000).toFixed(1)} s, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    const documented = Object.keys(operation("updateSmsProvider").responses).map(Number);
    expect([...statuses.keys()].filter((status) => !documented.includes(status))).toEqual([]);
    // Nothing in these requests can be refused, and with a generous wait for a pooled
    // connection none times out (the bounded wait itself: unavailable.test.ts).
    expect(statuses).toEqual(new Map([[200, 600]]));

    const providers = await db.store.smsProviders(demo.a.applicationId);
    expect(providers.map((p) => p.sort)).toEqual([1, 2, 3, 4, 5]);
    expect(providers.filter((p) => p.is_default)).toHaveLength(1);
    expect(new Set(providers.map((p) => p.id)).size).toBe(n);
    // Columns and stored records agree; no lost rename (each provider's name is one sent to it).
    const rows = (
      await db.pool.query<{ id: string; sort: number; is_default: boolean; body: { sort: number; is_default: boolean } }>(
        "SELECT id, sort, is_default, body FROM sms_providers WHERE application_id = $1",
        [demo.a.applicationId],
      )
    ).rows;
    expect(rows).toHaveLength(n);
    for (const row of rows) expect({ sort: row.body.sort, is_default: row.body.is_default }).toEqual({ sort: row.sort, is_default: row.is_default });
    // Each provider's name is one sent to it (its own when none was), and nothing else of it
    // changed but its position and default flag.
    for (const [i, provider] of providers.entries()) {
      const renamed = requests.filter((r, j) => answers[j]!.status === 200 && r.url.endsWith(`/${provider.id}`) && "name" in r.body);
      const names = renamed.map((r) => (r.body as { name: string }).name);
      expect(names.length > 0 ? names : [initial.get(provider.id)!.name]).toContain(provider.name);
      expect(provider).toEqual({ ...initial.get(provider.id), name: provider.name, sort: i + 1, is_default: provider.is_default });
    }
  }, 180_000);

  it("RATE_LIMIT=20 on each of three processes: 20 answers for one key between them, then 429s; another key unaffected", async () => {
    await db.reset(loadSeed());
    const urls = await threeServers({ DATABASE_URL: db.url, RATE_LIMIT: "20", CONCURRENCY_LIMIT: "off" });
    const widget = `/widgets/${loadSeed().applications[0]!.widgets[0]!.id}`;
    const statuses = await Promise.all(Array.from({ length: 60 }, (_, i) => fetch(`${urls[i % 3]}${widget}`, { headers: bearer }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    const other = await fetch(`${urls[1]}/webhooks`, { headers: { authorization: `Bearer ${demo.b.apiKey}` } });
    expect(other.status).toBe(200);
  }, 120_000);

  it("FAILED_AUTH_LIMIT=6 on each of three processes: 6 failed authentications from one address between them, then 429s", async () => {
    await db.reset(loadSeed());
    const urls = await threeServers({ DATABASE_URL: db.url, FAILED_AUTH_LIMIT: "6" });
    const statuses: number[] = [];
    for (let i = 0; i < 18; i++) {
      // One after another, so the answers' order is the count's.
      statuses.push(await fetch(`${urls[i % 3]}/webhooks`, { headers: { authorization: `Bearer ak_bogus_${i}` } }).then((r) => r.status));
    }
    // Counted per process, each of the three would have answered six 401s.
    expect(statuses).toEqual([...Array<number>(6).fill(401), ...Array<number>(12).fill(429)]);
  }, 120_000);
});
