// `npm run bench:tenants`: hostile multi-tenant load on PostgreSQL (docs/postgres.md, Fair
// sharing). A throwaway cluster holds the demo seed plus TENANTS_REPORTS generated reports
// (300,000) of application A; `npm start` runs on it as an operator would (DATABASE_URL, a
// pool of 10), with the per-key request limit raised out of the way so only the fairness
// guards stand between one key and the database. Application B (another tenant, from
// another address, 127.0.0.2, and its own process) reads one webhook over 2 connections throughout (the
// failed-authentication window is 10 minutes here, so the whole flood falls in one window):
//   unloaded, then while A sends 40 concurrent `group=1` report queries, then 40 concurrent
//   deep pages (page=2999&limit=100), then while one address (127.0.0.1) pipelines 10,000
//   distinct bogus keys over 100 connections × 100; then a valid key from that address, and
//   the rate_limits table before and after its rows expire.
// TENANTS_ROOT=<checkout> runs that checkout's server and store (how the "before" figures
// were measured). Prints one table; exits 1 when a check misses.
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { request } from "node:http";
import { connect } from "node:net";
import pg from "pg";
import { startCluster } from "../test/postgres/cluster.js";
import { attack, keyA, startReader, startStoreServer, statusList as fmt, webhookB, type StoreServer } from "./lib/tenants.js";
import { generateReports } from "./scale/generate.js";

const root = process.env.TENANTS_ROOT ?? new URL("..", import.meta.url).pathname;
const reportCount = Number(process.env.TENANTS_REPORTS ?? 300_000);
const phaseS = Number(process.env.TENANTS_DURATION ?? 15);
const rateWindowS = 10;

/**
 * `connections` sockets from 127.0.0.1, each writing `perConnection` requests with distinct
 * bogus keys in one go (HTTP pipelining), then reading every answer: the statuses counted,
 * and the requests a socket closed or timed out (60 s) on before answering.
 */
async function pipelinedBogusKeys(port: number, connections: number, perConnection: number) {
  const statuses: Record<string, number> = {};
  let unanswered = 0;
  await Promise.all(
    Array.from(
      { length: connections },
      (_, c) =>
        new Promise<void>((resolve) => {
          const socket = connect(port, "127.0.0.1");
          let text = "";
          let answered = 0;
          let finished = false;
          const finish = () => {
            if (finished) return;
            finished = true;
            unanswered += perConnection - answered;
            socket.destroy();
            resolve();
          };
          socket.setTimeout(60_000, finish);
          socket.on("data", (chunk: Buffer) => {
            text += chunk.toString("latin1");
            // Each answer starts with its status line; bodies are JSON and never hold one.
            let match;
            let consumed = 0;
            const line = /HTTP\/1\.1 (\d{3}) /g;
            while ((match = line.exec(text))) {
              statuses[match[1]!] = (statuses[match[1]!] ?? 0) + 1;
              answered++;
              consumed = line.lastIndex;
            }
            text = text.slice(consumed);
            if (answered === perConnection) finish();
          });
          socket.on("error", () => undefined);
          socket.on("close", finish);
          let batch = "";
          for (let i = 0; i < perConnection; i++) {
            batch += `GET /v1/widgets/wgt_5a3c8e1f7b92 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ak_bogus_${c}_${i}\r\n\r\n`;
          }
          socket.write(batch);
        }),
    ),
  );
  return { statuses, unanswered };
}

const cluster = await startCluster();
if ("unavailable" in cluster) {
  console.error(`bench:tenants: ${cluster.unavailable}`);
  process.exit(1);
}
let server: StoreServer | undefined;
const rows: string[][] = [];
const checks: [boolean, string][] = [];
try {
  cluster.createDatabase("tenants");
  const url = cluster.urlOf("tenants");
  // The checkout's own store code migrates, seeds and bulk-loads (its schema, its COPY).
  const { loadSeed } = (await import(`${root}/server/seed/load.ts`)) as typeof import("../server/seed/load.js");
  const { createPostgresStore } = (await import(`${root}/server/store/postgres/index.ts`)) as typeof import("../server/store/postgres/index.js");
  const { migrate } = (await import(`${root}/server/store/postgres/migrate.ts`)) as typeof import("../server/store/postgres/migrate.js");
  const { seedDatabase } = (await import(`${root}/server/store/postgres/seed.ts`)) as typeof import("../server/store/postgres/seed.js");
  const emailAuthKey = randomBytes(32).toString("hex");
  process.env.EMAIL_AUTH_KEY = emailAuthKey;
  const seed = loadSeed();
  const appA = seed.applications[0]!;
  const store = createPostgresStore({ connectionString: url, max: 2 });
  await migrate(store.pool);
  await seedDatabase(store.pool, seed);
  process.stderr.write(`loading ${reportCount} reports…\n`);
  await store.addReports(appA.id, generateReports({ count: reportCount, applicationId: appA.id, organizationId: appA.organization_id }));
  await store.close();
  const db = new pg.Pool({ connectionString: url, max: 1 });

  server = await startStoreServer(root, url, {
    RATE_LIMIT: "1000000",
    RATE_LIMIT_WINDOW_MS: String(rateWindowS * 1000),
    FAILED_AUTH_LIMIT_WINDOW_MS: "600000",
    EMAIL_AUTH_KEY: emailAuthKey,
  });
  const { port, rssMb } = server;
  const reader = await startReader(port);
  /** B's reads from now until `stop` resolves. */
  const tenantB = async (stop: Promise<unknown>) => {
    const from = Date.now();
    await stop;
    return reader.between(from, Date.now());
  };
  const ms = (n: number) => n.toFixed(1);

  // Warm-up, then B unloaded.
  await tenantB(new Promise((r) => setTimeout(r, 2000)));
  const unloaded = await tenantB(new Promise((r) => setTimeout(r, phaseS * 1000)));
  rows.push(["B unloaded", "—", `${ms(unloaded.p50)} / ${ms(unloaded.p99)}`, fmt(unloaded.statuses), ""]);

  const loadedPhase = async (name: string, path: string) => {
    const a = attack(port, { connections: 40, duration: phaseS, requests: [{ method: "GET", path, headers: { authorization: `Bearer ${keyA}` } }] });
    const b = await tenantB(a);
    const answered = await a;
    rows.push([
      name,
      `${fmt(answered.statuses)}; ${answered.errors} errors, ${answered.timeouts} timeouts`,
      `${ms(b.p50)} / ${ms(b.p99)}`,
      fmt(b.statuses),
      `${(b.p99 / unloaded.p99).toFixed(2)}×`,
    ]);
    checks.push([b.p99 < 3 * unloaded.p99 && !b.statuses["503"], `${name}: B's p99 < 3× unloaded and no 503`]);
  };
  await loadedPhase("A: 40 × group=1", "/v1/reports/encryption?group=1");
  await loadedPhase("A: 40 × page=2999&limit=100", "/v1/reports/encryption?page=2999&limit=100");

  // Finding 3: 10,000 distinct bogus keys pipelined over 100 connections from one address.
  const rssBefore = rssMb();
  const flood = pipelinedBogusKeys(port, 100, 100);
  const b = await tenantB(flood);
  const flooded = await flood;
  const rssAfter = rssMb();
  rows.push([
    "10,000 bogus keys, 100 conn × 100 pipelined",
    `${fmt(flooded.statuses)}; ${flooded.unanswered} unanswered`,
    `${ms(b.p50)} / ${ms(b.p99)}`,
    fmt(b.statuses),
    `RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB`,
  ]);
  checks.push([(flooded.statuses["401"] ?? 0) <= 60 + 100, "at most 60 + 100 × 401 to the flooding address"]);
  checks.push([!b.statuses["503"] && !b.statuses.timeout, "B never 503 nor times out during the flood"]);

  // Finding 4: a valid key from the flooding address, right after.
  const valid = await new Promise<number>((resolve) =>
    request(
      { host: "127.0.0.1", port, path: "/v1/widgets/wgt_5a3c8e1f7b92", headers: { authorization: `Bearer ${keyA}` } },
      (res) => (res.resume(), resolve(res.statusCode!)),
    ).end(),
  );
  rows.push(["valid key A from the flooding address", String(valid), "", "", ""]);
  checks.push([valid === 200, "a valid key from the flooding address is served"]);

  // Finding 6: rate_limits rows now, and after the per-key window has passed and a few requests wrote.
  const sizes = async () =>
    (await db.query<{ total: number; expired: number }>("SELECT count(*)::int AS total, count(*) FILTER (WHERE reset_at <= now())::int AS expired FROM rate_limits"))
      .rows[0]!;
  const afterFlood = await sizes();
  await new Promise((r) => setTimeout(r, (rateWindowS * 2 + 2) * 1000));
  await attack(port, { connections: 2, amount: 50, requests: [{ method: "GET", path: `/v1/webhooks/${webhookB}`, headers: { authorization: `Bearer ${keyA}` } }] });
  const later = await sizes();
  rows.push([
    "rate_limits rows",
    `${afterFlood.total} (${afterFlood.expired} expired) after the flood`,
    "",
    "",
    `${later.total} (${later.expired} expired) ${rateWindowS * 2 + 2} s later`,
  ]);
  checks.push([later.total < 100, "expired rate_limits rows are deleted (< 100 rows left)"]);
  await db.end();
} finally {
  server?.kill();
  cluster.stop();
}

console.log(
  `\nbench:tenants ${new Date().toISOString()} (${root}), load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" / ")}: ${reportCount} reports of A on PostgreSQL 15, ${phaseS} s per phase; B = another application from another address`,
);
console.log(["| phase | A's answers | B p50 / p99 ms | B's answers | note |", "|---|---|---:|---|---|", ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n"));
console.log("\ncheck");
for (const [ok, what] of checks) console.log(`  ${ok ? "PASS" : "MISS"}  ${what}`);
process.exit(checks.every(([ok]) => ok) ? 0 : 1);
