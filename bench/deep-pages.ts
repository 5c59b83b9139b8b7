// `npm run bench:deep-pages`: a shallow and a deep report page on PostgreSQL, found by OFFSET
// (before) and as the store finds them now (after: OFFSET for a page starting within the
// first 10,000 matches, seeking through the per-day counts beyond), in one run. A throwaway
// cluster holds DEEP_PAGES_REPORTS generated reports (300,000) of one application, loaded as
// the store loads them; each statement the store sends for GET /reports/encryption (page
// and count in one) runs DEEP_PAGES_RUNS times (40) over one connection after 3 warm-ups,
// the methods interleaved so both see the same machine. Prints p50/p99 per page and method,
// and the deep page's cost over page 1's; exits 1 when the store's deep page costs more
// than 3× its page 1 or its answer differs from OFFSET's.
// Then fairness: `npm start` on the same database (and, with DEEP_PAGES_BEFORE=<checkout>,
// that checkout's server beside it, "before"), application B reading one webhook from
// another address and its own process over 2 connections throughout, while quiet windows
// and windows of A's 40 concurrent `page=2999&limit=100` on one server alternate
// (DEEP_PAGES_FAIRNESS_ROUNDS rounds, 3, of DEEP_PAGES_FAIRNESS_S seconds each, 10: the
// machine's own ups and downs fall on every kind): B's p50/p99 over each kind, and a miss
// when this checkout's loaded p99 passes 3× its unloaded or B gets a 503.
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { startCluster } from "../test/postgres/cluster.js";
import { useEmailAuthKey } from "../server/crypto/email-auth.js";
import { loadSeed } from "../server/seed/load.js";
import { migrate } from "../server/store/postgres/migrate.js";
import { createPostgresStore } from "../server/store/postgres/index.js";
import { reportPageAndCount, type PageMethod } from "../server/store/postgres/reports.js";
import { seedDatabase } from "../server/store/postgres/seed.js";
import type { ReportFilters } from "../server/domain/index.js";
import { percentile } from "./lib/load.js";
import { writeReadmeBlock } from "./lib/readme.js";
import { attack, keyA, startReader, startStoreServer, statusList, type Reader, type StoreServer } from "./lib/tenants.js";
import { epochMs, generateReports } from "./scale/generate.js";

const reportCount = Number(process.env.DEEP_PAGES_REPORTS ?? 300_000);
const runs = Number(process.env.DEEP_PAGES_RUNS ?? 40);
const fairnessS = Number(process.env.DEEP_PAGES_FAIRNESS_S ?? 10);
const fairnessRounds = Number(process.env.DEEP_PAGES_FAIRNESS_ROUNDS ?? 3);
/** The servers whose fairness is measured in the same windows: DEEP_PAGES_BEFORE=<checkout> adds that checkout's, as "before". */
const serverRoots: [string, string][] = [
  ...(process.env.DEEP_PAGES_BEFORE ? [["before", process.env.DEEP_PAGES_BEFORE] as [string, string]] : []),
  ["after", new URL("..", import.meta.url).pathname],
];
const limit = 100;
/** Before (every page by OFFSET) and after (the store's choice). */
const methods = ["offset", "auto"] as const satisfies readonly PageMethod[];
type Method = (typeof methods)[number];
const quarter = { start_date: epochMs / 1000 + 400 * 86_400 + 3_600, end_date: epochMs / 1000 + 490 * 86_400 + 3_600 };

const cluster = await startCluster();
if ("unavailable" in cluster) {
  console.error(`bench:deep-pages: ${cluster.unavailable}`);
  process.exit(1);
}
const lines: string[] = [];
const fairness: string[] = [];
const checks: [boolean, string][] = [];
try {
  cluster.createDatabase("deep");
  const url = cluster.urlOf("deep");
  // The server started below reads the key from its environment: seal with the same one.
  process.env.EMAIL_AUTH_KEY ||= "ab".repeat(32);
  useEmailAuthKey(process.env.EMAIL_AUTH_KEY);
  const seed = loadSeed();
  const app = seed.applications[0]!;
  const store = createPostgresStore({ connectionString: url, max: 2 });
  await migrate(store.pool);
  await seedDatabase(store.pool, seed);
  process.stderr.write(`loading ${reportCount} reports…\n`);
  await store.addReports(app.id, generateReports({ count: reportCount, applicationId: app.id, organizationId: app.organization_id }));
  await store.close();
  const db = new pg.Client({ connectionString: url });
  await db.connect();

  type Row = { total: number; result: { id: string }[] };
  const query = async (filters: ReportFilters, page: number, method: PageMethod) =>
    (await db.query<Row>(reportPageAndCount(app.id, filters, { limit, page }, method))).rows[0]!;
  const lastPage = async (filters: ReportFilters) => Math.ceil((await query(filters, 1, "auto")).total / limit);

  const cases: [string, ReportFilters, number[]][] = [
    ["no filter", {}, [1, 2999]],
    ["device_type=ANDROID", { device_type: "ANDROID" }, [1, await lastPage({ device_type: "ANDROID" })]],
    ["status=NEW, a quarter (partial days at both ends)", { status: "NEW", ...quarter }, [1, await lastPage({ status: "NEW", ...quarter })]],
  ];
  const ms = (n: number) => n.toFixed(2).padStart(8);
  lines.push("filters                                            page  matches  before: OFFSET p50 / p99  after: store p50 / p99");
  for (const [name, filters, pages] of cases) {
    const p50 = new Map<string, number>();
    for (const page of pages) {
      const times: Record<Method, number[]> = { offset: [], auto: [] };
      const answers: Partial<Record<Method, string>> = {};
      for (let i = 0; i < runs + 3; i++) {
        for (const method of methods) {
          const t0 = performance.now();
          const row = await query(filters, page, method);
          if (i >= 3) times[method].push(performance.now() - t0);
          answers[method] = JSON.stringify(row);
        }
      }
      const total = (JSON.parse(answers.auto!) as Row).total;
      checks.push([answers.auto === answers.offset, `${name}, page ${page}: the store's answer is OFFSET's`]);
      for (const method of methods) p50.set(`${method} ${page}`, percentile(times[method], 50));
      lines.push(
        `${name.padEnd(50)} ${String(page).padStart(5)} ${String(total).padStart(8)}  ${ms(percentile(times.offset, 50))} / ${ms(percentile(times.offset, 99))}     ${ms(percentile(times.auto, 50))} / ${ms(percentile(times.auto, 99))}`,
      );
    }
    const [shallow, deep] = pages;
    const ratio = (method: Method) => p50.get(`${method} ${deep}`)! / p50.get(`${method} ${shallow}`)!;
    lines.push(`${"".padEnd(50)} p50 page ${deep} / page ${shallow}: before ${ratio("offset").toFixed(2)}×, after ${ratio("auto").toFixed(2)}×`);
    checks.push([ratio("auto") < 3, `${name}: the store's page ${deep} costs < 3× its page 1 (p50)`]);
  }
  await db.end();

  // Fairness: B's reads (its own process, one reader per server) in quiet windows and in
  // windows where A's 40 deep pages load one server, the kinds alternated round by round.
  const servers: { name: string; server: StoreServer; reader: Reader; loaded: [number, number][]; answers: Record<string, number> }[] = [];
  try {
    for (const [name, root] of serverRoots) {
      const server = await startStoreServer(root, url, { RATE_LIMIT: "1000000" });
      servers.push({ name, server, reader: await startReader(server.port), loaded: [], answers: {} });
    }
    const forS = (s: number) => new Promise((resolve) => setTimeout(resolve, s * 1000));
    await forS(2);
    const quiet: [number, number][] = [];
    const loadAverages: number[] = [];
    for (let round = 0; round < fairnessRounds; round++) {
      for (const target of servers) {
        const off = Date.now();
        await forS(fairnessS);
        quiet.push([off, Date.now()]);
        const on = Date.now();
        const a = await attack(target.server.port, {
          connections: 40,
          duration: fairnessS,
          requests: [{ method: "GET", path: "/v1/reports/encryption?page=2999&limit=100", headers: { authorization: `Bearer ${keyA}` } }],
        });
        target.loaded.push([on, Date.now()]);
        loadAverages.push(loadavg()[0]!);
        for (const [status, count] of Object.entries(a.statuses)) target.answers[status] = (target.answers[status] ?? 0) + count;
        if (a.errors || a.timeouts) target.answers[`${a.errors} errors, ${a.timeouts} timeouts`] = 1;
      }
    }
    fairness.push(`load average (1 min) over the windows: ${Math.min(...loadAverages).toFixed(1)}–${Math.max(...loadAverages).toFixed(1)}`);
    for (const { name, reader, loaded: windows, answers } of servers) {
      const unloaded = await reader.within(quiet);
      const loaded = await reader.within(windows);
      const ratio = loaded.p99 / unloaded.p99;
      fairness.push(
        `${name}: B unloaded p50 ${unloaded.p50.toFixed(1)} / p99 ${unloaded.p99.toFixed(1)} ms (${statusList(unloaded.statuses)}); while A sends 40 × page=2999&limit=100 p50 ${loaded.p50.toFixed(1)} / p99 ${loaded.p99.toFixed(1)} ms (${statusList(loaded.statuses)}): p99 ${ratio.toFixed(2)}× unloaded; A's answers ${statusList(answers)}`,
      );
      if (name === "after") checks.push([ratio < 3 && !loaded.statuses["503"], "B's p99 under A's 40 concurrent deep pages < 3× unloaded, no 503"]);
    }
    for (const { reader } of servers) await reader.stop();
  } finally {
    for (const { server } of servers) server.kill();
  }
} finally {
  cluster.stop();
}

const heading = `bench:deep-pages ${new Date().toISOString()}, load average ${loadavg()
  .map((n) => n.toFixed(1))
  .join(" / ")}: ${reportCount} reports on PostgreSQL 15, limit ${limit}, ${runs} runs per page and method (page and count in one statement, one connection, ms)`;
const fairnessHeading = `fairness (${serverRoots.map(([name, root]) => `${name}: ${root === serverRoots.at(-1)![1] ? "this checkout" : root}`).join(", ")}; ${fairnessRounds} rounds of ${fairnessS} s quiet then ${fairnessS} s of A's load per server)`;
console.log(`\n${heading}`);
console.log(lines.join("\n"));
console.log(`\n${fairnessHeading}`);
console.log(fairness.join("\n"));
// A run at the defaults writes its figures into docs/postgres.md (Deep pages, Fair sharing).
if (process.env.DEEP_PAGES_REPORTS === undefined && process.env.DEEP_PAGES_RUNS === undefined)
  writeReadmeBlock(
    "deep-pages",
    `\`npm run bench:deep-pages\` (\`bench/deep-pages.ts\`; absolute times are the shared 2-core machine's, compare within the run):\n\n\`\`\`\n${heading}\n${lines.join("\n")}\n\n${fairnessHeading}\n${fairness.join("\n")}\n\`\`\``,
    new URL("../docs/postgres.md", import.meta.url),
  );
console.log("\ncheck");
for (const [ok, what] of checks) console.log(`  ${ok ? "PASS" : "MISS"}  ${what}`);
process.exit(checks.every(([ok]) => ok) ? 0 : 1);
