// `npm run bench:serverless`: the cold invoke of the API as an AWS Lambda function, against
// bare Express in the same run. The server package is built (scripts/build.ts server, or
// COLD_PACKAGE_DIR names another build's dist/) and each target is a fresh `node
// bench/targets/cold/lambda.mjs` (no tsx) that imports the function as the platform does and
// invokes it once with an HTTP API event for GET /widgets/{id}, then once more (warm):
//   (b) bare Express with one route through serverless-http (the baseline);
//   (e) docs/backend.md's serverless-http recipe: createContractApp, `await ready()`, serverless-http;
//   (e') the same through @codegenie/serverless-express.
// Per spawn, from the module's first line: imports, app built, ready(), first invoke
// answered (the cold invoke), and spawn → first answer; COLD_RUNS spawns per target (default
// 7), interleaved; medians. Then what dominates the recipe's cold invoke: its imports one
// package after another (median of the same number of spawns) and one run under
// `node --cpu-prof`, self time by package. Prints the tables, writes
// bench/results/serverless-cold.json and the figures block of bench/README.md.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { operations, type OperationId } from "../generated/operations.js";
import { buildPackage } from "../scripts/build.js";
import { operation, successExample } from "../test/support/document.js";
import { httpApiEvent } from "../test/support/lambda-events.js";
import { selfTime, top } from "./lib/cpu-profile.js";
import { writeReadmeBlock } from "./lib/readme.js";
import { fixed, machine, markdownTable, table } from "./lib/report.js";

const runs = Math.max(1, Number(process.env.COLD_RUNS ?? 7));
const here = (p: string) => new URL(p, import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "serverless-cold-"));

const startedAt = new Date().toISOString();
const machineBefore = await machine();
let packageDir = process.env.COLD_PACKAGE_DIR;
if (!packageDir) {
  process.stderr.write("serverless-cold: building the server package (scripts/build.ts server)\n");
  buildPackage("server");
  packageDir = here("../packages/server/dist");
}

const ids = Object.keys(operations) as OperationId[];
const specFile = join(scratch, "spec.json");
writeFileSync(
  specFile,
  JSON.stringify({
    packageDir,
    operations: ids.map((operationId) => ({
      operationId,
      status: Number(Object.keys((operation(operationId) as { responses: object }).responses).find((code) => /^2\d\d$/.test(code))),
      body: successExample(operationId),
    })),
    event: httpApiEvent({
      method: "GET",
      url: `/v1/widgets/${(successExample("readWidget") as { result: { id: string } }).result.id}`,
      headers: { authorization: "Bearer x" },
    }),
  }),
);

const modes = ["bare", "serverless-http", "serverless-express"] as const;
type Mode = (typeof modes)[number] | "imports";
const names: Record<(typeof modes)[number], string> = {
  bare: "(b) bare Express, one route, serverless-http",
  "serverless-http": "(e) the recipe, serverless-http",
  "serverless-express": "(e') the recipe, @codegenie/serverless-express",
};

interface Spawned {
  /** Process start → the module's first line (Node's own start-up). */
  startedAt: number;
  /** From the module's first line, ms. */
  marks: Record<string, number>;
  warmMs?: number;
  statuses?: number[];
  /** Spawn → the child's report (its first answer given), as the parent saw it. */
  spawnToAnswer: number;
}

function spawnOnce(mode: Mode, nodeArgs: string[] = []): Promise<Spawned> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, here("targets/cold/lambda.mjs")], {
    env: { ...process.env, NODE_ENV: "production", COLD_MODE: mode, COLD_SPEC: specFile },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    let reported: number | undefined;
    const timer = setTimeout(() => (child.kill("SIGKILL"), reject(new Error(`${mode}: no report within 120 s`))), 120_000);
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk;
      if (reported === undefined && out.includes("\n")) reported = performance.now() - t0;
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      try {
        const report = JSON.parse(out.split("\n")[0]!) as Omit<Spawned, "spawnToAnswer">;
        if (report.statuses?.some((status) => status !== 200)) throw new Error(`${mode}: answered ${report.statuses.join(", ")}`);
        resolve({ ...report, spawnToAnswer: reported! });
      } catch (error) {
        reject(new Error(`${mode} exited ${code}: ${(error as Error).message}; printed ${out}`));
      }
    });
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const results: Record<Mode, Spawned[]> = { bare: [], "serverless-http": [], "serverless-express": [], imports: [] };
for (let run = 1; run <= runs; run++) {
  for (const mode of [...modes, "imports" as const]) results[mode].push(await spawnOnce(mode));
  process.stderr.write(`serverless-cold: run ${run}/${runs} done\n`);
}
// One more spawn of the serverless-http recipe under the CPU profiler: where its time goes, by package.
const profileDir = join(scratch, "profile");
await spawnOnce("serverless-http", ["--cpu-prof", `--cpu-prof-dir=${profileDir}`]);
const profile = selfTime(join(profileDir, readdirSync(profileDir)[0]!), here("..").replace(/\/$/, ""));
const machineAfter = await machine();

const phase = (mode: Mode, from: string | undefined, to: string) => median(results[mode].map((r) => r.marks[to]! - (from ? r.marks[from]! : 0)));
const summary = modes.map((mode) => ({
  mode,
  target: names[mode],
  bootMs: median(results[mode].map((r) => r.startedAt)),
  importMs: phase(mode, undefined, "import"),
  appMs: phase(mode, "import", "app"),
  readyMs: phase(mode, "app", "ready"),
  invokeMs: phase(mode, "ready", "first"),
  coldInvokeMs: phase(mode, undefined, "first"),
  spawnToAnswerMs: median(results[mode].map((r) => r.spawnToAnswer)),
  warmMs: median(results[mode].map((r) => r.warmMs!)),
}));
const bare = summary[0]!;
const importSteps = Object.keys(results.imports[0]!.marks);
const importRows = importSteps.map((step, i) => [step, fixed(phase("imports", importSteps[i - 1], step), 0)]);
const importTotal = phase("imports", undefined, importSteps.at(-1)!);
const profileRows = top(profile.byPackage, profile.total, 12).map(([name, share]) => [name, `${fixed(share, 1)} %`]);

const coldHeaders = ["target", "imports ms", "app ms", "ready() ms", "first invoke ms", "cold invoke ms", "× (b)", "spawn → answer ms", "× (b)", "warm invoke ms"];
const coldRows = summary.map((s) => [
  s.target,
  fixed(s.importMs, 0),
  fixed(s.appMs, 0),
  fixed(s.readyMs, 0),
  fixed(s.invokeMs, 1),
  fixed(s.coldInvokeMs, 0),
  fixed(s.coldInvokeMs / bare.coldInvokeMs, 2),
  fixed(s.spawnToAnswerMs, 0),
  fixed(s.spawnToAnswerMs / bare.spawnToAnswerMs, 2),
  fixed(s.warmMs, 2),
]);
const context = `${machineBefore.cpus} × ${machineBefore.cpuModel}, Node ${machineBefore.node}; load average (1/5/15 min) ${machineBefore.loadavg.join(" / ")} before, ${machineAfter.loadavg.join(" / ")} after`;

console.log(`\nserverless cold invoke ${startedAt}: medians of ${runs} spawns per target (interleaved), server package ${packageDir}`);
console.log(table(coldHeaders, coldRows));
console.log(`\nthe recipe's cold invoke, step by step (median of ${runs} spawns; total ${fixed(importTotal, 0)} ms)`);
console.log(table(["step", "ms"], importRows));
console.log("\none spawn of (e) under node --cpu-prof, self time by package");
console.log(table(["package or file", "self time"], profileRows));
console.log(`\nmachine: ${context}`);

mkdirSync(here("results"), { recursive: true });
writeFileSync(
  here("results/serverless-cold.json"),
  JSON.stringify({ startedAt, runs, packageDir, machine: { ...machineBefore, loadavgAfter: machineAfter.loadavg }, summary, importRows, profileRows, results }, null, 2),
);
console.log("written bench/results/serverless-cold.json");

if (!process.env.COLD_PACKAGE_DIR) {
  writeReadmeBlock(
    "serverless-cold",
    [
      `**Serverless cold invoke** (\`npm run bench:serverless\`), ${startedAt}, medians of ${runs} spawns per target, interleaved, the built server package under plain \`node\`, one HTTP API event for \`GET /widgets/{id}\` (${context}). The cold invoke is the function's module from its first line to the first answer: what a Lambda cold start adds to Node's own start-up (${fixed(bare.bootMs, 0)} ms here, before the first line).`,
      "",
      markdownTable(coldHeaders, coldRows),
      "",
      `What the recipe's cold invoke is made of, one step after another in one process (median of ${runs} spawns, ${fixed(importTotal, 0)} ms in all):`,
      "",
      markdownTable(["step", "ms"], importRows),
      "",
      "One spawn of (e) under `node --cpu-prof`, self time by package (`node core` is mostly loading and compiling modules):",
      "",
      markdownTable(["package or file", "self time"], profileRows),
    ].join("\n"),
  );
  console.log("written bench/README.md (serverless-cold block)");
}
