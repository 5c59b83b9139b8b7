// `npm run bench` (second part; alone: `tsx bench/cold-start.ts`): cold start and the first
// request of each path, as a service runs the server package: the package is built
// (scripts/build.ts server, or COLD_PACKAGE_DIR names another build's dist/, e.g. an older
// checkout's) and each target is a fresh `node bench/targets/cold/service.mjs` (no tsx):
//   (b) bare Express with one route;
//   (e) createContractApp with every handler, served by the package's listen(), which opens
//       the port once every operation's validators are compiled;
//   (e lazy) the same app on Node's createServer without waiting: each path compiles on its
//       first request (what every service got before ready()).
// Per spawn: spawn → first API 200 (GET widget), spawn → every operation answered once (all
// compiled), and each operation's first request against the median of its next five.
// COLD_RUNS spawns per target (default 5), interleaved; medians. Prints the tables and the
// checks, writes bench/results/cold-start.json and the figures block of bench/README.md.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { operations, type OperationId } from "../generated/operations.js";
import { buildPackage } from "../scripts/build.js";
import { operation, successExample } from "../test/support/document.js";
import { credentialsFor, validRequest } from "../test/support/requests.js";
import { markdownTable as md, writeReadmeBlock } from "./lib/readme.js";
import { fixed, machine, table } from "./lib/report.js";

const runs = Math.max(1, Number(process.env.COLD_RUNS ?? 5));
const here = (p: string) => new URL(p, import.meta.url).pathname;
const demo = { apiKey: "ak_live_acme_4f9e2b7c1d8a6e3f", apiSecret: "as_live_acme_9b1e6d3f7a2c5e8b" };

const startedAt = new Date().toISOString();
const machineBefore = await machine();
let packageDir = process.env.COLD_PACKAGE_DIR;
if (!packageDir) {
  process.stderr.write("cold-start: building the server package (scripts/build.ts server)\n");
  buildPackage("server");
  packageDir = here("../packages/server/dist");
}

const ids = Object.keys(operations) as OperationId[];
const spec = {
  packageDir,
  operations: ids.map((operationId) => {
    const status = Number(Object.keys((operation(operationId) as { responses: object }).responses).find((code) => /^2\d\d$/.test(code)));
    return { operationId, status, body: successExample(operationId) };
  }),
};
const specFile = join(mkdtempSync(join(tmpdir(), "cold-start-")), "spec.json");
writeFileSync(specFile, JSON.stringify(spec));

/** One request of `operationId` as a correct client sends it; resolves with the status and the milliseconds it took. */
async function send(origin: string, operationId: OperationId): Promise<{ status: number; ms: number }> {
  const request = validRequest(operationId);
  const t0 = performance.now();
  const res = await fetch(`${origin}/v1${request.path}`, {
    method: request.method,
    headers: { ...credentialsFor(operationId, demo), ...(request.body === undefined ? {} : { "content-type": "application/json" }) },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t0 };
}

interface Spawned {
  /** Spawn → first 200 of GET widget. */
  firstApi: number;
  /** Spawn → every operation answered once. */
  allAnswered: number;
  /** Per operation: its first request and the median of its next five, ms. */
  paths: Record<string, { first: number; warm: number }>;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function spawnOnce(mode: "bare" | "listen" | "lazy"): Promise<Spawned> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [here("targets/cold/service.mjs")], {
    env: { ...process.env, NODE_ENV: "production", COLD_MODE: mode, COLD_SPEC: specFile },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`${mode}: no "listening" line within 60 s`)), 60_000);
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk;
        const match = /listening (\S+)/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.once("exit", (code) => reject(new Error(`${mode} exited with ${code}`)));
    });
    const probe = await send(origin, "readWidget");
    if (probe.status !== 200) throw new Error(`${mode}: GET widget answered ${probe.status}`);
    const firstApi = performance.now() - t0;
    const paths: Spawned["paths"] = {};
    if (mode === "bare") {
      // Its one route's first request against its next five: what Node and Express cost on first use, for any app.
      const warm: number[] = [];
      for (let i = 0; i < 5; i++) {
        const again = await send(origin, "readWidget");
        if (again.status !== 200) throw new Error(`${mode}: GET widget answered ${again.status}`);
        warm.push(again.ms);
      }
      return { firstApi, allAnswered: firstApi, paths: { readWidget: { first: probe.ms, warm: median(warm) } } };
    }
    const firsts: Record<string, number> = { readWidget: probe.ms };
    for (const id of ids.filter((id) => id !== "readWidget")) {
      const first = await send(origin, id);
      if (first.status >= 300) throw new Error(`${mode}: ${id} answered ${first.status}`);
      firsts[id] = first.ms;
    }
    const allAnswered = performance.now() - t0;
    for (const id of ids) {
      const warm: number[] = [];
      for (let i = 0; i < 5; i++) warm.push((await send(origin, id)).ms);
      paths[id] = { first: firsts[id]!, warm: median(warm) };
    }
    return { firstApi, allAnswered, paths };
  } finally {
    child.kill("SIGKILL");
  }
}

const modes = ["bare", "listen", "lazy"] as const;
const results: Record<(typeof modes)[number], Spawned[]> = { bare: [], listen: [], lazy: [] };
for (let run = 1; run <= runs; run++) {
  for (const mode of modes) results[mode].push(await spawnOnce(mode));
  process.stderr.write(`cold-start: run ${run}/${runs} done\n`);
}

const names = { bare: "(b) express, one route", listen: "(e) createContractApp, listen()", lazy: "(e lazy) createContractApp, no ready()" };
const summary = modes.map((mode) => ({
  mode,
  target: names[mode],
  firstApiMs: median(results[mode].map((r) => r.firstApi)),
  allAnsweredMs: median(results[mode].map((r) => r.allAnswered)),
}));
const bare = summary[0]!.firstApiMs;
const perPath = (mode: "bare" | "listen" | "lazy", only = ids) =>
  only.map((id) => {
    const first = median(results[mode].map((r) => r.paths[id]!.first));
    const warm = median(results[mode].map((r) => r.paths[id]!.warm));
    return { operationId: id, firstMs: first, warmMs: warm, ratio: first / warm };
  });
const listenPaths = perPath("listen");
const lazyPaths = perPath("lazy");
/** Bare Express's one route: the first-use cost of Node's HTTP server and Express, which every app pays. */
const bareFirst = perPath("bare", ["readWidget"])[0]!;
// Under listen() the first API answer comes with every operation compiled already.
const coldRatio = summary[1]!.firstApiMs / bare;
const worstFirst = Math.max(...listenPaths.map((p) => p.ratio));
const checks = {
  "cold start, spawn to first API 200 with every operation compiled (listen()) <= 2.5x bare Express": coldRatio <= 2.5,
  "first request of each path <= 2x a warm one (listen())": worstFirst <= 2,
};
const machineAfter = await machine();

const coldRows = summary.map((s) => [s.target, fixed(s.firstApiMs, 0), fixed(s.firstApiMs / bare, 2), fixed(s.allAnsweredMs, 0), fixed(s.allAnsweredMs / bare, 2)]);
const coldHeaders = ["target", "spawn → first API 200 ms", "× (b)", "spawn → all 9 answered ms", "× (b)"];
const pathHeaders = ["operation", "listen(): first ms", "warm ms", "first ÷ warm", "lazy: first ms", "warm ms", "first ÷ warm"];
const pathRows = ids.map((id, i) => {
  const a = listenPaths[i]!;
  const b = lazyPaths[i]!;
  return [id, fixed(a.firstMs, 1), fixed(a.warmMs, 1), fixed(a.ratio, 2), fixed(b.firstMs, 1), fixed(b.warmMs, 1), fixed(b.ratio, 2)];
});
const context = `${machineBefore.cpus} × ${machineBefore.cpuModel}, Node ${machineBefore.node}; load average (1/5/15 min) ${machineBefore.loadavg.join(" / ")} before, ${machineAfter.loadavg.join(" / ")} after`;

console.log(`\ncold start ${startedAt}: medians of ${runs} spawns per target (interleaved), server package ${packageDir}`);
console.log(table(coldHeaders, coldRows));
console.log("\nfirst request of each operation against the median of its next five");
console.log(table(pathHeaders, pathRows));
console.log(
  `bare Express, its one route (GET widget): first ${fixed(bareFirst.firstMs, 1)} ms, warm ${fixed(bareFirst.warmMs, 1)} ms, first ÷ warm ${fixed(bareFirst.ratio, 2)}`,
);
console.log("\nchecks");
for (const [name, ok] of Object.entries(checks)) console.log(`  ${ok ? "PASS" : "MISS"}  ${name}`);
console.log(`\nmachine: ${context}`);

mkdirSync(here("results"), { recursive: true });
writeFileSync(
  here("results/cold-start.json"),
  JSON.stringify(
    { startedAt, runs, packageDir, machine: { ...machineBefore, loadavgAfter: machineAfter.loadavg }, summary, listenPaths, lazyPaths, bareFirst, checks, results },
    null,
    2,
  ),
);
console.log("written bench/results/cold-start.json");

if (!process.env.COLD_PACKAGE_DIR) {
  writeReadmeBlock(
    "cold-start",
    [
      `**Cold start** (\`bench/cold-start.ts\`, part of \`npm run bench\`), ${startedAt}, medians of ${runs} spawns per target, the built server package under plain \`node\` (${context}):`,
      "",
      md(coldHeaders, coldRows as string[][]),
      "",
      "First request of each operation against the median of its next five (same spawns):",
      "",
      md(pathHeaders, pathRows as string[][]),
      "",
      `Bare Express's one route in the same spawns: first ${fixed(bareFirst.firstMs, 1)} ms, warm ${fixed(bareFirst.warmMs, 1)} ms, first ÷ warm **${fixed(bareFirst.ratio, 2)}** (the first use of Node's HTTP server and Express, and the client's new connection, which the first request of any app pays).`,
      "",
      `Checks: cold start with every operation compiled ≤ 2.5× bare Express **${checks[Object.keys(checks)[0] as keyof typeof checks] ? "met" : "missed"}** (${fixed(coldRatio, 2)}×); first request of each path ≤ 2× a warm one **${checks[Object.keys(checks)[1] as keyof typeof checks] ? "met" : "missed"}** (worst ${fixed(worstFirst, 2)}×).`,
    ].join("\n"),
  );
  console.log("written bench/README.md (cold-start block)");
}
