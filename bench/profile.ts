// Where a target's CPU time goes: runs one bench target, warms it up, profiles it (through
// the inspector, so start-up is left out) while one request is driven at it, and prints the
// top self-time by function and by package. Usage: tsx bench/profile.ts [target script] [scenario]
//   e.g. tsx bench/profile.ts bench/targets/server.ts "GET widget"
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { selfTime, top } from "./lib/cpu-profile.js";
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

const { total, byPackage, byFunction } = selfTime(file);
const percent = (rows: [string, number][]) => rows.map(([name, share]) => [name, `${fixed(share)} %`]);
console.log(`profile of ${script} on "${scenario}": ${r.requests} requests, ${fixed(r.reqPerSec, 0)} req/s; ${file}`);
console.log(table(["package or file", "self time"], percent(top(byPackage, total, 20))));
console.log("");
console.log(table(["function", "self time"], percent(top(byFunction, total, 30))));
