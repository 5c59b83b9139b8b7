// `npm run bench:scale`: 10k, 100k and 1M generated encryption reports, each size in a fresh
// server process; per size: bulk-load time, RSS per 100k records, and each filtered, paged
// query's p50/p99 straight through the store and through HTTP (one connection, so latency
// is service time, not queueing). Prints how the cost grows, writes bench/results/scale.json
// and its block of bench/README.md's Figures.
import { mkdirSync, writeFileSync } from "node:fs";
import { load } from "../lib/load.js";
import { bearer } from "../lib/fixtures.js";
import { machineLine, markdownTable, writeReadmeBlock } from "../lib/readme.js";
import { fixed, machine, table } from "../lib/report.js";
import { spawnTarget } from "../lib/spawn.js";
import { pathOf, queries } from "./queries.js";

// `-- --store postgres` runs the same queries on the PostgreSQL store (bench/scale/postgres.ts).
if (process.argv.includes("postgres") && process.argv.includes("--store")) {
  await import("./postgres.js");
  process.exit(0);
}

const sizes = (process.env.SCALE_SIZES ?? "10000,100000,1000000").split(",").map(Number);
const durationS = Number(process.env.SCALE_DURATION ?? 3);
const here = (p: string) => new URL(p, import.meta.url).pathname;

interface DirectTiming {
  name: string;
  calls: number;
  p50Ms: number;
  p99Ms: number;
  matched: number;
}
interface Info {
  count: number;
  generateMs: number;
  loadMs: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  rssPer100kMb: number;
  heapPer100kMb: number;
  direct: DirectTiming[];
}

const startedAt = new Date().toISOString();
const before = await machine();
const results: { info: Info; http: { name: string; reqPerSec: number; p50Ms: number; p99Ms: number; failures: number }[] }[] = [];

for (const count of sizes) {
  process.stderr.write(`loading ${count} reports…\n`);
  const target = await spawnTarget(
    here("child.ts"),
    { path: pathOf(queries[0]!), headers: bearer },
    {
      env: { SCALE_COUNT: String(count) },
      execArgv: ["--expose-gc", "--max-old-space-size=6144"],
      timeoutMs: 600_000,
    },
  );
  try {
    const http = [];
    for (const q of queries) {
      const request = { method: "GET" as const, path: pathOf(q), headers: bearer };
      await load({ url: target.url, requests: [request], durationS: 1, connections: 1 });
      const r = await load({ url: target.url, requests: [request], durationS, connections: 1 });
      http.push({ name: q.name, reqPerSec: r.reqPerSec, p50Ms: r.p50Ms, p99Ms: r.p99Ms, failures: r.failures });
    }
    results.push({ info: target.info as Info, http });
  } finally {
    await target.stop();
  }
}

console.log(`\nbench:scale ${startedAt}: application A's encryption reports, generated with a fixed seed; HTTP over 1 connection, ${durationS} s per query`);
console.log(
  table(
    ["reports", "generate ms", "bulk load ms", "RSS before MB", "RSS after MB", "RSS per 100k MB", "heap per 100k MB"],
    results.map(({ info }) => [
      info.count,
      fixed(info.generateMs, 0),
      fixed(info.loadMs, 0),
      fixed(info.rssBeforeMb),
      fixed(info.rssAfterMb),
      fixed(info.rssPer100kMb),
      fixed(info.heapPer100kMb),
    ]),
  ),
);
console.log("");
console.log(
  table(
    ["query", "reports", "matches", "store p50 ms", "store p99 ms", "HTTP p50 ms", "HTTP p99 ms", "HTTP req/s", "failures"],
    queries.flatMap((q, i) =>
      results.map(({ info, http }) => {
        const d = info.direct[i]!;
        const h = http[i]!;
        return [q.name, info.count, d.matched, fixed(d.p50Ms, 3), fixed(d.p99Ms, 3), fixed(h.p50Ms, 2), fixed(h.p99Ms, 2), fixed(h.reqPerSec, 0), h.failures];
      }),
    ),
  ),
);

// Growth: how each query's store p50 changes per 10× more records.
console.log("\ncost growth per 10× records (store p50 ratio)");
const growth = queries.map((q, i) => [q.name, ...results.slice(1).map((r, k) => fixed(r.info.direct[i]!.p50Ms / results[k]!.info.direct[i]!.p50Ms, 2) + "×")]);
console.log(table(["query", ...results.slice(1).map((r, k) => `${results[k]!.info.count}→${r.info.count}`)], growth));

const worst = (count: number) => {
  const r = results.find((x) => x.info.count === count);
  return r ? Math.max(...r.http.map((h) => h.p50Ms)) : undefined;
};
const checks = {
  "HTTP p50 < 50 ms at 1M (every query)": worst(1_000_000) === undefined ? undefined : worst(1_000_000)! < 50,
  "HTTP p50 < 10 ms at 100k (every query)": worst(100_000) === undefined ? undefined : worst(100_000)! < 10,
};
console.log("\nchecks");
for (const [name, ok] of Object.entries(checks)) console.log(`  ${ok === undefined ? "n/a " : ok ? "PASS" : "MISS"}  ${name}`);
const after = await machine();
console.log(`\nmachine: ${before.cpus} × ${before.cpuModel}, load average before ${before.loadavg.join(" ")}, after ${after.loadavg.join(" ")}`);
mkdirSync(here("../results"), { recursive: true });
writeFileSync(here("../results/scale.json"), JSON.stringify({ startedAt, durationS, machine: { ...before, loadavgAfter: after.loadavg }, results, checks }, null, 2));
console.log("written bench/results/scale.json");

writeReadmeBlock(
  "scale",
  [
    `**npm run bench:scale** (\`bench/scale/run.ts\`), ${startedAt}, HTTP over 1 connection, ${durationS} s per query (${machineLine(before, after)}):`,
    "",
    markdownTable(
      ["reports", "generate ms", "bulk load ms", "RSS per 100k MB", "heap per 100k MB"],
      results.map(({ info }) => [info.count, fixed(info.generateMs, 0), fixed(info.loadMs, 0), fixed(info.rssPer100kMb), fixed(info.heapPer100kMb)]),
    ),
    "",
    markdownTable(
      ["query (ms)", ...results.flatMap(({ info }) => [`${info.count / 1000}k store p50`, `${info.count / 1000}k HTTP p50 / p99`])],
      queries.map((q, i) => [
        q.name,
        ...results.flatMap(({ info, http }) => [fixed(info.direct[i]!.p50Ms, 3), `${fixed(http[i]!.p50Ms, 2)} / ${fixed(http[i]!.p99Ms, 2)}`]),
      ]),
    ),
  ].join("\n"),
);
