// `npm run bench`: the same widget read against the floor (a: node:http), bare Express (b),
// Express + request validation (b2), the reference server (c, production configuration and
// again with response validation), the mock (d) and the package's enforcing layer with a
// trivial handler (e, the built server package); one target process at a time, with a
// warm-up of every scenario before any is measured. Prints a table and writes
// bench/results/latest.json. Any non-2xx answer or error of a target, in warm-up or measurement,
// fails the run (exit code 1) and voids that target's figures.
import { mkdirSync, writeFileSync } from "node:fs";
import { buildPackage } from "../scripts/build.js";
import { load, type LoadResult } from "./lib/load.js";
import { spawnTarget } from "./lib/spawn.js";
import { serverRequests, widgetRequest, type BenchRequest } from "./lib/fixtures.js";
import { machineLine, markdownTable as md, writeReadmeBlock } from "./lib/readme.js";
import { fixed, machine, table } from "./lib/report.js";

const durationS = Number(process.env.BENCH_DURATION ?? 5);
const warmupS = Number(process.env.BENCH_WARMUP ?? 2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Comma-separated target keys to run (a,b,b2,c,cv,d,e); all by default. */
const only = process.env.BENCH_ONLY?.split(",");
/**
 * Rounds of the whole target list. Figures are medians over rounds and ratios medians of
 * per-round ratios: on a shared VM absolute CPU moves by up to 1.6× between runs, and
 * targets measured in the same round see the same machine.
 */
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

interface TargetSpec {
  key: string;
  name: string;
  script: string;
  env?: Record<string, string>;
  scenarios: Record<string, BenchRequest>;
}

const here = (p: string) => new URL(p, import.meta.url).pathname;
const widgetOnly = { "GET widget": widgetRequest };
const targets: TargetSpec[] = [
  { key: "a", name: "(a) node:http", script: here("targets/bare-http.ts"), scenarios: widgetOnly },
  { key: "b", name: "(b) express", script: here("targets/bare-express.ts"), scenarios: widgetOnly },
  { key: "b2", name: "(b2) express+eov", script: here("targets/express-eov.ts"), scenarios: widgetOnly },
  // Right after (b2), the baseline it is checked against: CPU per request drifts over minutes on a shared VM.
  { key: "e", name: "(e) enforcing entry", script: here("targets/entry.ts"), scenarios: widgetOnly },
  { key: "c", name: "(c) server", script: here("targets/server.ts"), env: { BENCH_VALIDATE_RESPONSES: "0" }, scenarios: serverRequests },
  { key: "cv", name: "(c) server+resval", script: here("targets/server.ts"), env: { BENCH_VALIDATE_RESPONSES: "1" }, scenarios: serverRequests },
  { key: "d", name: "(d) mock", script: here("targets/mock.ts"), scenarios: widgetOnly },
].filter((t) => !only || only.includes(t.key));

interface Row extends Omit<LoadResult, "statuses"> {
  target: string;
  key: string;
  scenario: string;
  cpuMicrosPerRequest: number;
  peakRssMb: number;
  coldStartMs: number;
  statuses: Record<string, number>;
}

// (e) runs the server package as a service installs it (bench/targets/entry.ts).
if (targets.some((t) => t.key === "e") && !process.env.BENCH_SERVER_DIST) {
  process.stderr.write("bench: building the server package for (e) (scripts/build.ts server)\n");
  buildPackage("server");
}

const startedAt = new Date().toISOString();
const machineBefore = await machine();
const roundRows: Row[][] = [];
const failures: string[] = [];

for (let round = 1; round <= rounds; round++) {
  const rows: Row[] = [];
  roundRows.push(rows);
  for (const spec of targets) {
    let target;
    try {
      target = await spawnTarget(spec.script, widgetRequest, { env: spec.env });
    } catch (error) {
      failures.push(`${spec.name}: ${(error as Error).message.split("\n")[0]}`);
      console.error(`skipped ${spec.name}: ${(error as Error).message}`);
      continue;
    }
    try {
      // Warm every path first: lazy compilation (validators, JIT) must not land in any
      // measurement. A non-2xx answer here counts as a failure too: a target that throttles
      // (a 429 from a rate limit still on) or refuses during warm-up measures its refusals.
      const warm = async (scenario: string, request: BenchRequest, seconds: number) => {
        const result = await load({ url: target.url, requests: [request], durationS: seconds, connections });
        if (result.failures > 0) failures.push(`${spec.name} ${scenario} (warm-up): ${result.failures} failures ${JSON.stringify(result.statuses)}`);
      };
      for (const [scenario, request] of Object.entries(spec.scenarios)) await warm(scenario, request, warmupS);
      for (const [scenario, request] of Object.entries(spec.scenarios)) {
        await warm(scenario, request, 1);
        const before = await target.usage();
        const result = await load({ url: target.url, requests: [request], durationS, connections });
        const after = await target.usage();
        rows.push({
          target: spec.name,
          key: spec.key,
          scenario,
          ...result,
          cpuMicrosPerRequest: (after.cpuMicros - before.cpuMicros) / Math.max(result.requests, 1),
          peakRssMb: after.maxRssKb / 1024,
          coldStartMs: target.coldStartMs,
        });
        if (result.failures > 0) failures.push(`${spec.name} ${scenario}: ${result.failures} failures ${JSON.stringify(result.statuses)}`);
        process.stderr.write(`round ${round}/${rounds}: done ${spec.name} ${scenario}\n`);
      }
    } finally {
      await target.stop();
    }
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const numericKeys = ["reqPerSec", "p50Ms", "p99Ms", "cpuMicrosPerRequest", "peakRssMb", "coldStartMs"] as const;
/** One row per target and scenario: the median of each figure over the rounds. */
const rows: Row[] = roundRows[0]!.map((first) => {
  const same = roundRows.flatMap((r) => r.filter((row) => row.key === first.key && row.scenario === first.scenario));
  const medians = Object.fromEntries(numericKeys.map((k) => [k, median(same.map((row) => row[k]))]));
  return { ...first, ...medians, failures: same.reduce((n, row) => n + row.failures, 0) };
});

const widgetIn = (round: Row[], key: string) => round.find((r) => r.key === key && r.scenario === "GET widget");
/** Median over rounds of target ÷ baseline, each pair taken from the same round. */
const ratioOf = (key: string, base: string, figure: "reqPerSec" | "cpuMicrosPerRequest") => {
  const perRound = roundRows.flatMap((round) => {
    const row = widgetIn(round, key);
    const ref = widgetIn(round, base);
    return row && ref ? [row[figure] / ref[figure]] : [];
  });
  return perRound.length ? median(perRound) : undefined;
};
const ratios = ["c", "cv", "d", "e"].flatMap((key) =>
  ["a", "b", "b2"].flatMap((base) => {
    const row = widgetIn(rows, key);
    const ref = widgetIn(rows, base);
    if (!row || !ref) return [];
    return [{ target: row.target, versus: ref.target, reqPerSec: ratioOf(key, base, "reqPerSec")!, cpuPerRequest: ratioOf(key, base, "cpuMicrosPerRequest")! }];
  }),
);

const cpuVsEov = ratioOf("c", "b2", "cpuMicrosPerRequest");
const entryVsEov = ratioOf("e", "b2", "cpuMicrosPerRequest");
const entryVsExpress = ratioOf("e", "b", "cpuMicrosPerRequest");
const reqVsMock = ratioOf("c", "d", "reqPerSec");
const checks = {
  "server CPU/request on GET widget <= 1.3x (b2)": cpuVsEov === undefined ? undefined : cpuVsEov <= 1.3,
  "enforcing entry CPU/request on GET widget <= (b2)": entryVsEov === undefined ? undefined : entryVsEov <= 1,
  "enforcing entry CPU/request on GET widget <= 1.6x (b)": entryVsExpress === undefined ? undefined : entryVsExpress <= 1.6,
  "server req/s on GET widget >= 2x mock": reqVsMock === undefined ? undefined : reqVsMock >= 2,
  "no failed requests": failures.length === 0,
};

console.log(
  `\nbench ${startedAt}: medians of ${rounds} round(s); ${durationS} s per scenario after ${warmupS} s warm-up of each scenario (+1 s just before), ${connections} connections, one target process at a time`,
);
console.log(
  table(
    ["target", "scenario", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "peak RSS MB", "cold start ms", "non-2xx/err"],
    rows.map((r) => [
      r.target,
      r.scenario,
      fixed(r.reqPerSec, 0),
      fixed(r.p50Ms, 2),
      fixed(r.p99Ms, 2),
      fixed(r.cpuMicrosPerRequest, 0),
      fixed(r.peakRssMb),
      fixed(r.coldStartMs, 0),
      r.failures,
    ]),
  ),
);
console.log("\nGET widget ratios (target / baseline)");
console.log(
  table(
    ["target", "versus", "req/s ×", "CPU/req ×"],
    ratios.map((r) => [r.target, r.versus, fixed(r.reqPerSec, 2), fixed(r.cpuPerRequest, 2)]),
  ),
);
console.log("\nchecks");
for (const [name, ok] of Object.entries(checks)) console.log(`  ${ok === undefined ? "n/a " : ok ? "PASS" : "MISS"}  ${name}`);
if (failures.length > 0) {
  // The figures of a target that answered anything but 2xx measure its refusals (a 429 costs
  // less than an answer), not its throughput: loud, and a failed exit, never a quiet table.
  console.error(`\nBENCH FAILED: ${failures.length} scenario(s) answered non-2xx or errors; their figures are void:`);
  for (const f of failures) console.error(`  failure: ${f}`);
  process.exitCode = 1;
}

const machineAfter = await machine();
mkdirSync(here("results"), { recursive: true });
writeFileSync(
  here("results/latest.json"),
  JSON.stringify(
    { startedAt, rounds, durationS, warmupS, connections, machine: { ...machineBefore, loadavgAfter: machineAfter.loadavg }, rows, roundRows, ratios, checks, failures },
    null,
    2,
  ),
);
console.log(
  `\nmachine: ${machineBefore.cpus} × ${machineBefore.cpuModel}, load average before ${machineBefore.loadavg.join(" ")}, after ${machineAfter.loadavg.join(" ")}`,
);
console.log("written bench/results/latest.json");

// The figures block of bench/README.md, from this run only (a partial run, BENCH_ONLY, too:
// it says which targets it measured).
writeReadmeBlock(
  "bench",
  [
    `**npm run bench** (\`bench/run.ts\`), ${startedAt}: medians of ${rounds} round(s), ${durationS} s per scenario, ${connections} connections, targets ${targets.map((t) => t.key).join(", ")} (${machineLine(machineBefore, machineAfter)}):`,
    "",
    md(
      ["target", "scenario", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "cold start ms"],
      rows.map((r) => [r.target, r.scenario, fixed(r.reqPerSec, 0), fixed(r.p50Ms, 2), fixed(r.p99Ms, 2), fixed(r.cpuMicrosPerRequest, 0), fixed(r.coldStartMs, 0)]),
    ),
    "",
    "GET widget, target ÷ baseline (medians of the per-round ratios):",
    "",
    md(
      ["target", "versus", "req/s ×", "CPU/request ×"],
      ratios.map((r) => [r.target, r.versus, fixed(r.reqPerSec, 2), fixed(r.cpuPerRequest, 2)]),
    ),
    "",
    `Checks: ${Object.entries(checks)
      .map(([name, ok]) => `${name} **${ok === undefined ? "n/a" : ok ? "pass" : "miss"}**`)
      .join("; ")}.${failures.length ? ` Failures: ${failures.join("; ")}.` : ""}`,
  ].join("\n"),
);
console.log("written bench/README.md (bench block)");
