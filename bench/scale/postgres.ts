// `npm run bench:scale -- --store postgres`: the scale benchmark's queries on the PostgreSQL
// store, in a throwaway cluster: per size, the COPY bulk-load time and each filtered, paged
// query's p50/p99 through the store (pool, wire protocol, count + page), then EXPLAIN
// (ANALYZE, BUFFERS) of each query at the largest size. Writes bench/results/scale-postgres.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { loadSeed } from "../../server/seed/load.js";
import { createPostgresStore } from "../../server/store/postgres/index.js";
import { migrate } from "../../server/store/postgres/migrate.js";
import { reportQuery } from "../../server/store/postgres/reports.js";
import { seedDatabase } from "../../server/store/postgres/seed.js";
import { startCluster } from "../../test/postgres/cluster.js";
import { fixed, table } from "../lib/report.js";
import { generateReports } from "./generate.js";
import { queries } from "./queries.js";

const sizes = (process.env.SCALE_SIZES ?? "10000,100000,1000000").split(",").map(Number);
const calls = Number(process.env.SCALE_CALLS ?? 200);
const here = (p: string) => new URL(p, import.meta.url).pathname;

const cluster = await startCluster();
if ("unavailable" in cluster) {
  console.error(`bench:scale --store postgres: ${cluster.unavailable}`);
  process.exit(1);
}
const seed = loadSeed();
const app = seed.applications[0]!;
const rows: { count: number; loadMs: number; queries: { name: string; matched: number; p50Ms: number; p99Ms: number }[] }[] = [];
const explains: Record<string, string> = {};
try {
  cluster.createDatabase("bench");
  const store = createPostgresStore({ connectionString: cluster.urlOf("bench"), max: 4 });
  await migrate(store.pool);
  for (const count of sizes) {
    await seedDatabase(store.pool, seed);
    const reports = generateReports({ count, applicationId: app.id, organizationId: app.organization_id });
    process.stderr.write(`loading ${count} reports with COPY…\n`);
    const t0 = performance.now();
    await store.addReports(app.id, reports);
    const loadMs = performance.now() - t0;
    const timings = [];
    for (const q of queries) {
      const paging = { limit: q.limit, page: q.page };
      for (let i = 0; i < 20; i++) await store.encryptionReports(app.id, q.filters, paging);
      const samples: number[] = [];
      let matched = 0;
      for (let i = 0; i < calls; i++) {
        const s = performance.now();
        matched = (await store.encryptionReports(app.id, q.filters, paging)).meta.total_count;
        samples.push(performance.now() - s);
      }
      samples.sort((a, b) => a - b);
      timings.push({ name: q.name, matched, p50Ms: samples[Math.floor(calls * 0.5)]!, p99Ms: samples[Math.floor(calls * 0.99)]! });
      if (count === sizes.at(-1)) {
        const { count: c, page } = reportQuery(app.id, q.filters, paging);
        const plan = async (s: { text: string; values: unknown[] }) =>
          (await store.pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${s.text}`, s.values)).rows.map((r) => r["QUERY PLAN"]).join("\n");
        explains[q.name] = `-- page\n${page.text}\n${await plan(page)}\n-- count\n${c.text}\n${await plan(c)}`;
      }
    }
    rows.push({ count, loadMs, queries: timings });
  }
  await store.close();
} finally {
  cluster.stop();
}

console.log(`\nbench:scale --store postgres: application A's encryption reports (fixed seed), ${calls} calls per query, one at a time through the store`);
console.log(table(["reports", "COPY + VACUUM ANALYZE ms"], rows.map((r) => [r.count, fixed(r.loadMs, 0)])));
console.log("");
console.log(
  table(
    ["query", "reports", "matches", "p50 ms", "p99 ms"],
    queries.flatMap((q, i) => rows.map((r) => [q.name, r.count, r.queries[i]!.matched, fixed(r.queries[i]!.p50Ms, 2), fixed(r.queries[i]!.p99Ms, 2)])),
  ),
);
for (const [name, text] of Object.entries(explains)) console.log(`\nEXPLAIN at ${sizes.at(-1)}: ${name}\n${text}`);
mkdirSync(here("../results"), { recursive: true });
writeFileSync(here("../results/scale-postgres.json"), JSON.stringify({ calls, rows, explains }, null, 2));
console.log("written bench/results/scale-postgres.json");
