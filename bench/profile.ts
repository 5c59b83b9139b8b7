// Where a target's CPU time goes: runs one bench target, warms it up, profiles it (through
// the inspector, so start-up is left out) while one request is driven at it, and prints the
// top self-time by function and by package. Usage: tsx bench/profile.ts [target script] [scenario]
//   e.g. tsx bench/profile.ts bench/targets/server.ts "GET widget"
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { serverRequests, widgetRequest } from "./lib/fixtures.js";
import { load } from "./lib/load.js";
import { table, fixed } from "./lib/report.js";
import { spawnTarget } from "./lib/spawn.js";

const script = resolve(process.argv[2] ?? new URL("targets/server.ts", import.meta.url).pathname);
const scenario = (process.argv[3] ?? "GET widget") as keyof typeof serverRequests;
const request = serverRequests[scenario] ?? widgetRequest;
const dir = mkdtempSync(join(tmpdir(), "bench-prof-"));

const file = join(dir, "target.cpuprofile");
const target = await spawnTarget(script, widgetRequest, { env: { BENCH_VALIDATE_RESPONSES: process.env.BENCH_VALIDATE_RESPONSES ?? "0" } });
await load({ url: target.url, requests: [request], durationS: 2, connections: 10 });
await target.profile.start();
const r = await load({ url: target.url, requests: [request], durationS: Number(process.env.BENCH_DURATION ?? 5), connections: 10 });
await target.profile.stop(file);
await target.stop();

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
const profile = JSON.parse(readFileSync(file, "utf8")) as { nodes: Node[]; samples: number[]; startTime: number; endTime: number };
const total = profile.samples.length;
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const node of profile.nodes) {
  if (!node.hitCount) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "");
  const fn = `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + node.hitCount);
  const pkg =
    /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1] ??
    (where.startsWith("node:") ? "node core" : where === "" ? `(${functionName})` : where.split("/").slice(0, 2).join("/"));
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + node.hitCount);
}
const top = (m: Map<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => [k, fixed((v / total) * 100) + " %"]);
console.log(`profile of ${script} on "${scenario}": ${r.requests} requests, ${fixed(r.reqPerSec, 0)} req/s; ${file}`);
console.log(table(["package or file", "self time"], top(byPackage, 20)));
console.log("");
console.log(table(["function", "self time"], top(byFunction, 30)));
