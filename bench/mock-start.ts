// `npm run bench:mock-start`: how soon `authsvc-api mock` (the built bin, as `npx authsvc-api
// mock` runs it) answers, against a trivial Node server spawned the same way in the same run
// (the floor any Node process pays: start-up, one listen, one answer). Interleaved spawns,
// MOCK_RUNS of each (default 3), medians:
//   - spawn → first 200 (GET widget), the figure a Playwright `webServer` probe waits for;
//   - each operation's first request against the median of its next five, so a path that
//     compiles or loads something on its first request shows;
//   - what one 99 kB unauthenticated PUT of 49,500 invalid items writes to the log (one
//     bounded line).
// Targets: first 200 ≤ 1.5 s on an idle machine, ≤ 2× the trivial server under load (load
// average printed). Builds the mock package first unless --no-build; writes
// bench/results/mock-start.json and the figures block of docs/mock.md.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { operations, type OperationId } from "../generated/operations.js";
import { buildPackage } from "../scripts/build.js";
import { credentialsFor, validRequest } from "../test/support/requests.js";
import { markdownTable, writeReadmeBlock } from "./lib/readme.js";
import { fixed, machine, table } from "./lib/report.js";

const runs = Math.max(1, Number(process.env.MOCK_RUNS ?? 3));
const idleTargetMs = 1500;
const loadedRatio = 2;
const here = (p: string) => new URL(p, import.meta.url).pathname;
// The mock package's bin, as `npx authsvc-api mock` runs it from @authsvc/app-api-mock.
const bin = here("../packages/mock/dist/cli/authsvc-api.js");
const demo = { apiKey: "ak_live_acme_4f9e2b7c1d8a6e3f", apiSecret: "as_live_acme_9b1e6d3f7a2c5e8b" };
const ids = Object.keys(operations) as OperationId[];
// The floor: a Node process that listens and answers, printing its URL as the mock does.
const trivial = `require("node:http").createServer((q, s) => s.end("{}")).listen(0, "127.0.0.1", function () { console.log("http://127.0.0.1:" + this.address().port + "/v1") })`;

const startedAt = new Date().toISOString();
const machineBefore = await machine();
if (!process.argv.includes("--no-build")) {
  const t0 = performance.now();
  buildPackage("mock");
  process.stderr.write(`mock-start: built the mock package in ${Math.round(performance.now() - t0)} ms\n`);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** One request of `operationId` as a correct client sends it: its status and the milliseconds it took. */
async function send(url: string, operationId: OperationId): Promise<{ status: number; ms: number }> {
  const request = validRequest(operationId);
  const t0 = performance.now();
  const res = await fetch(`${url}${request.path}`, {
    method: request.method,
    headers: { ...credentialsFor(operationId, demo), ...(request.body === undefined ? {} : { "content-type": "application/json" }) },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t0 };
}

/** Resolves with the /v1 URL the child prints (the mock's "Mock of the application API on …" line). */
function printedUrl(child: ChildProcess, name: string, output: { text: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: no URL printed within 60 s`)), 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output.text += chunk;
      const url = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(output.text)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}:\n${output.text}`)));
  });
}

/**
 * The CPU time (user + system, ms) process `pid` has used so far, from /proc (Linux; NaN
 * elsewhere): the part of a start-up that does not depend on how busy the machine is.
 */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

interface Spawned {
  /** Spawn → the URL printed (the mock says it is ready). */
  printed: number;
  /** Spawn → first 200 of GET widget. */
  first200: number;
  /** The child's CPU time at its first 200. */
  cpu: number;
  /** Per operation: its first request and the median of its next five, ms (the mock only). */
  paths: Record<string, { first: number; warm: number }>;
  log?: { status: number; lines: number; bytes: number };
}

async function spawnOnce(target: "trivial" | "mock", measureLog: boolean): Promise<Spawned> {
  const t0 = performance.now();
  const args = target === "mock" ? [bin, "mock", "--port", "0"] : ["-e", trivial];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const output = { text: "" };
  try {
    const url = await printedUrl(child, target, output);
    const printed = performance.now() - t0;
    const probe = await send(url, "readWidget");
    if (probe.status !== 200) throw new Error(`${target}: GET widget answered ${probe.status}`);
    const first200 = performance.now() - t0;
    const cpu = cpuMs(child.pid);
    if (target === "trivial") return { printed, first200, cpu, paths: {} };
    const firsts: Record<string, number> = { readWidget: probe.ms };
    for (const id of ids.filter((id) => id !== "readWidget")) {
      const first = await send(url, id);
      if (first.status !== operations[id].successStatus) throw new Error(`mock: ${id} answered ${first.status}`);
      firsts[id] = first.ms;
    }
    const paths: Spawned["paths"] = {};
    for (const id of ids) {
      const warm: number[] = [];
      for (let i = 0; i < 5; i++) warm.push((await send(url, id)).ms);
      paths[id] = { first: firsts[id]!, warm: median(warm) };
    }
    return { printed, first200, cpu, paths, ...(measureLog ? { log: await logOfHugePut(url, output) } : {}) };
  } finally {
    child.kill("SIGKILL");
  }
}

/** What one 99 kB unauthenticated PUT of 49,500 invalid items writes to the mock's log. */
async function logOfHugePut(url: string, output: { text: string }) {
  // The earlier requests' lines are written asynchronously: let them land before counting.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const before = output.text.length;
  const put = await fetch(`${url}/sms/providers/sms_2c7e9b4f1a6d`, {
    method: "PUT",
    headers: { "content-type": "application/json", cookie: "session=bench-cookie", "proxy-authorization": "Basic YmVuY2g=" },
    body: JSON.stringify({ countries: Array.from({ length: 49_500 }, () => 0) }),
  });
  await put.text();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const written = output.text.slice(before);
  if (/bench-cookie|YmVuY2g=/.test(written)) throw new Error("the log holds the Cookie or Proxy-Authorization value");
  return { status: put.status, lines: written.split("\n").filter(Boolean).length, bytes: Buffer.byteLength(written) };
}

const results = { trivial: [] as Spawned[], mock: [] as Spawned[] };
for (let run = 1; run <= runs; run++) {
  results.trivial.push(await spawnOnce("trivial", false));
  results.mock.push(await spawnOnce("mock", run === 1));
  process.stderr.write(`mock-start: run ${run}/${runs} done\n`);
}
const machineAfter = await machine();

const mockFirst = median(results.mock.map((r) => r.first200));
const trivialFirst = median(results.trivial.map((r) => r.first200));
const paths = ids.map((id) => {
  const first = median(results.mock.map((r) => r.paths[id]!.first));
  const warm = median(results.mock.map((r) => r.paths[id]!.warm));
  return { operationId: id, firstMs: first, warmMs: warm, ratio: first / warm };
});
const load = machineBefore.loadavg[0]!;
const idle = load < 1;
const checks = {
  [`spawn → first 200 <= ${idleTargetMs} ms (idle machine, load < 1)`]: idle ? mockFirst <= idleTargetMs : "not idle: not judged",
  [`spawn → first 200 <= ${loadedRatio}× the trivial Node server's`]: mockFirst <= loadedRatio * trivialFirst,
};
const log = results.mock[0]!.log!;
const context = `${machineBefore.cpus} × ${machineBefore.cpuModel}, Node ${machineBefore.node}; load average (1/5/15 min) ${machineBefore.loadavg.join(" / ")} before, ${machineAfter.loadavg.join(" / ")} after`;

const row = (name: string, spawned: Spawned[]) => [
  name,
  fixed(median(spawned.map((r) => r.printed)), 0),
  fixed(median(spawned.map((r) => r.first200)), 0),
  spawned.map((r) => fixed(r.first200, 0)).join(" / "),
  fixed(median(spawned.map((r) => r.cpu)), 0),
];
const spawnRows = [row("trivial Node server", results.trivial), row("authsvc-api mock", results.mock)];
const spawnHeaders = ["target", "spawn → URL printed ms", "spawn → first 200 ms", "each run", "CPU to first 200 ms"];
const pathHeaders = ["operation", "first ms", "warm ms", "first ÷ warm"];
const pathRows = paths.map((p) => [p.operationId, fixed(p.firstMs, 1), fixed(p.warmMs, 1), fixed(p.ratio, 2)]);
console.log(`\nmock start ${startedAt}: medians of ${runs} spawns per target (interleaved)`);
console.log(table(spawnHeaders, spawnRows));
console.log(`mock ÷ trivial: ${fixed(mockFirst / trivialFirst, 2)}`);
console.log("\nthe mock's first request of each operation against the median of its next five");
console.log(table(pathHeaders, pathRows));
console.log(`\n99 kB unauthenticated PUT (49,500 invalid items): ${log.status}, ${log.lines} log line(s), ${log.bytes} B written`);
console.log("\nchecks");
for (const [name, ok] of Object.entries(checks))
  console.log(`  ${ok === true ? "PASS" : ok === false ? "MISS" : "----"}  ${name}${typeof ok === "string" ? ` (${ok})` : ""}`);
console.log(`\nmachine: ${context}`);

mkdirSync(here("results"), { recursive: true });
writeFileSync(
  here("results/mock-start.json"),
  JSON.stringify({ startedAt, runs, machine: { ...machineBefore, loadavgAfter: machineAfter.loadavg }, mockFirst, trivialFirst, paths, log, checks, results }, null, 2),
);

writeReadmeBlock(
  "mock-start",
  [
    `Measured by \`npm run bench:mock-start\` on ${startedAt.slice(0, 10)} (${context}); medians of ${runs} spawns of each, interleaved:`,
    "",
    markdownTable(spawnHeaders, spawnRows),
    "",
    `The mock answers its first 200 in ${fixed(mockFirst / trivialFirst, 2)}× the time of a Node server that does nothing but answer; ` +
      `it spends ${fixed(median(results.mock.map((r) => r.cpu)), 0)} ms of CPU getting there, the trivial server ` +
      `${fixed(median(results.trivial.map((r) => r.cpu)), 0)} ms (on an idle machine, wall time is about the CPU time). ` +
      "Its first request of each operation against the median of its next five:",
    "",
    markdownTable(pathHeaders, pathRows),
    "",
    "Targets:",
    "",
    ...Object.entries(checks).map(([name, ok]) => `- ${name}: ${ok === true ? "met" : ok === false ? "**not met**" : ok}`),
  ].join("\n"),
  new URL("../docs/mock.md", import.meta.url),
);
console.log("written bench/results/mock-start.json and docs/mock.md's figures");
