// `npm run bench:scale -- --store postgres`: the scale benchmark's queries through HTTP on
// the in-memory store and on PostgreSQL (a throwaway cluster), side by side. Per size: the
// bulk-load time of each (in memory: index build; PostgreSQL: COPY, per-day counts, VACUUM
// ANALYZE), then each filtered, paged query's p50/p99 over one connection against a server
// process of each store; then EXPLAIN (ANALYZE, BUFFERS) of each query's two statements at
// the largest size. Writes bench/results/scale-postgres.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { loadSeed } from "../../server/seed/load.js";
import { createPostgresStore } from "../../server/store/postgres/index.js";
import { migrate } from "../../server/store/postgres/migrate.js";
import { reportQuery } from "../../server/store/postgres/reports.js";
import { seedDatabase } from "../../server/store/postgres/seed.js";
import { startCluster } from "../../test/postgres/cluster.js";
import { bearer } from "../lib/fixtures.js";
import { load } from "../lib/load.js";
import { fixed, machine, table } from "../lib/report.js";
import { spawnTarget } from "../lib/spawn.js";
import { generateReports } from "./generate.js";
import { pathOf, queries } from "./queries.js";

const sizes = (process.env.SCALE_SIZES ?? "10000,100000,1000000").split(",").map(Number);
const durationS = Number(process.env.SCALE_DURATION ?? 3);
const here = (p: string) => new URL(p, import.meta.url).pathname;

interface Timing {
  name: string;
  p50Ms: number;
  p99Ms: number;
  reqPerSec: number;
  failures: number;
}

/** Each query's p50/p99 through HTTP against `url`, over one connection (service time, not queueing). */
async function measure(url: string): Promise<Timing[]> {
  const timings: Timing[] = [];
  for (const q of queries) {
    const request = { method: "GET" as const, path: pathOf(q), headers: bearer };
    await load({ url, requests: [request], durationS: 1, connections: 1 });
    const r = await load({ url, requests: [request], durationS, connections: 1 });
    timings.push({ name: q.name, p50Ms: r.p50Ms, p99Ms: r.p99Ms, reqPerSec: r.reqPerSec, failures: r.failures });
  }
  return timings;
}

const cluster = await startCluster();
if ("unavailable" in cluster) {
  console.error(`bench:scale --store postgres: ${cluster.unavailable}`);
  process.exit(1);
}
const startedAt = new Date().toISOString();
const before = await machine();
const seed = loadSeed();
const app = seed.applications[0]!;
const rows: { count: number; memory: { loadMs: number; http: Timing[] }; postgres: { loadMs: number; matched: number[]; http: Timing[] } }[] = [];
const explains: Record<string, string> = {};
try {
  cluster.createDatabase("bench");
  const url = cluster.urlOf("bench");
  const store = createPostgresStore({ connectionString: url, max: 4 });
  await migrate(store.pool);
  for (const count of sizes) {
    process.stderr.write(`in memory: ${count} reports…\n`);
    const memoryTarget = await spawnTarget(
      here("child.ts"),
      { path: pathOf(queries[0]!), headers: bearer },
      {
        env: { SCALE_COUNT: String(count) },
        execArgv: ["--max-old-space-size=6144"],
        timeoutMs: 600_000,
      },
    );
    let memory;
    try {
      memory = { loadMs: (memoryTarget.info as { loadMs: number }).loadMs, http: await measure(memoryTarget.url) };
    } finally {
      await memoryTarget.stop();
    }

    await seedDatabase(store.pool, seed);
    let reports: ReturnType<typeof generateReports> | undefined = generateReports({ count, applicationId: app.id, organizationId: app.organization_id });
    process.stderr.write(`PostgreSQL: COPY of ${count} reports…\n`);
    const t0 = performance.now();
    await store.addReports(app.id, reports);
    const loadMs = performance.now() - t0;
    reports = undefined;
    const matched = [];
    for (const q of queries) matched.push((await store.encryptionReports(app.id, q.filters, { limit: q.limit, page: q.page })).meta.total_count);
    const pgTarget = await spawnTarget(here("postgres-child.ts"), { path: pathOf(queries[0]!), headers: bearer }, { env: { DATABASE_URL: url }, timeoutMs: 120_000 });
    let postgres;
    try {
      postgres = { loadMs, matched, http: await measure(pgTarget.url) };
    } finally {
      await pgTarget.stop();
    }
    rows.push({ count, memory, postgres });

    if (count === sizes.at(-1)) {
      for (const q of queries) {
        const { count: c, page } = reportQuery(app.id, q.filters, { limit: q.limit, page: q.page });
        const plan = async (s: { text: string; values: unknown[] }) =>
          (await store.pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${s.text}`, s.values)).rows.map((r) => r["QUERY PLAN"]).join("\n");
        explains[q.name] = `-- page\n${page.text}\n${await plan(page)}\n-- count\n${c.text}\n${await plan(c)}`;
      }
    }
  }
  await store.close();
} finally {
  cluster.stop();
}

console.log(`\nbench:scale --store postgres ${startedAt}: application A's encryption reports (fixed seed); HTTP over 1 connection, ${durationS} s per query`);
console.log(
  table(
    ["reports", "in-memory load ms", "PostgreSQL load ms"],
    rows.map((r) => [r.count, fixed(r.memory.loadMs, 0), fixed(r.postgres.loadMs, 0)]),
  ),
);
console.log("");
console.log(
  table(
    ["query", "reports", "matches", "memory p50 ms", "memory p99 ms", "PostgreSQL p50 ms", "PostgreSQL p99 ms", "failures"],
    queries.flatMap((q, i) =>
      rows.map((r) => {
        const m = r.memory.http[i]!;
        const p = r.postgres.http[i]!;
        return [q.name, r.count, r.postgres.matched[i]!, fixed(m.p50Ms, 2), fixed(m.p99Ms, 2), fixed(p.p50Ms, 2), fixed(p.p99Ms, 2), m.failures + p.failures];
      }),
    ),
  ),
);
const largest = rows.find((r) => r.count === 1_000_000);
const worst = largest && Math.max(...largest.postgres.http.map((h) => h.p50Ms));
console.log(
  `\ncheck\n  ${worst === undefined ? "n/a " : worst < 20 ? "PASS" : "MISS"}  PostgreSQL HTTP p50 < 20 ms at 1M (every query; worst ${fixed(worst ?? NaN, 2)} ms)`,
);
for (const [name, text] of Object.entries(explains)) console.log(`\nEXPLAIN at ${sizes.at(-1)}: ${name}\n${text}`);
const after = await machine();
console.log(`\nmachine: ${before.cpus} × ${before.cpuModel}, load average before ${before.loadavg.join(" ")}, after ${after.loadavg.join(" ")}`);
mkdirSync(here("../results"), { recursive: true });
writeFileSync(
  here("../results/scale-postgres.json"),
  JSON.stringify({ startedAt, durationS, machine: { ...before, loadavgAfter: after.loadavg }, rows, explains }, null, 2),
);
console.log("written bench/results/scale-postgres.json");
