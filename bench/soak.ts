// `npm run bench:soak`: 60 s at 50 connections of mixed operations (all nine in turn) against
// the reference server in its own process, after a warm-up. Reports errors, latency drift (first vs last 10 s) and RSS and retained heap
// (each after a full GC) at start and end.
import { mkdirSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { bearer, serverRequests, widgetRequest, type BenchRequest } from "./lib/fixtures.js";
import { load, percentile } from "./lib/load.js";
import { machineLine, markdownTable, writeReadmeBlock } from "./lib/readme.js";
import { fixed, machine, table } from "./lib/report.js";
import { spawnTarget } from "./lib/spawn.js";
import type { Usage } from "./lib/child.js";

const durationS = Number(process.env.SOAK_DURATION ?? 60);
const connections = Number(process.env.SOAK_CONNECTIONS ?? 50);
const warmupS = Number(process.env.SOAK_WARMUP ?? 5);
const windowS = 10;
const here = (p: string) => new URL(p, import.meta.url).pathname;

const allOperations: BenchRequest[] = [
  ...Object.values(serverRequests),
  { method: "GET", path: "/users/usr_7d2e9a4c1b6f/activity?limit=10", headers: bearer },
  { method: "GET", path: "/webhooks/whk_3a7f1c9e5b2d", headers: bearer },
  { method: "GET", path: "/webhooks/whk_3a7f1c9e5b2d/history?page=1", headers: bearer },
  { method: "GET", path: "/webhooks?limit=10", headers: bearer },
  {
    method: "POST",
    path: "/custom/emails",
    headers: { ...bearer, "content-type": "application/json" },
    body: JSON.stringify({
      type: "SENDGRID",
      auth: { api_key: "SG.soak-not-a-real-key" },
      email_from: "noreply@acme-shop.example",
      email_admin: "admin@acme-shop.example",
    }),
  },
];
/** SOAK_MIX=reads leaves out POST /notifications (whose records the store keeps), to tell stored data from a leak. */
const mix = process.env.SOAK_MIX === "reads" ? allOperations.filter((r) => r.path !== "/notifications") : allOperations;

const startedAt = new Date().toISOString();
const before = await machine();
// --expose-gc so each memory sample follows a full collection: RSS and heap then show what
// the server retains, not how much garbage the last 10 s left between collections.
const target = await spawnTarget(here("targets/server.ts"), widgetRequest, { env: { BENCH_VALIDATE_RESPONSES: "0" }, execArgv: ["--expose-gc"] });
let report;
try {
  await load({ url: target.url, requests: mix, durationS: warmupS, connections });
  const start = await target.usage({ gc: true });
  const sample = (atS: number, u: Usage) => ({
    atS,
    rssMb: u.rssKb / 1024,
    heapMb: u.heapUsedKb / 1024,
    heapTotalMb: u.heapTotalKb / 1024,
    externalMb: u.externalKb / 1024,
  });
  const rssTimeline = [sample(0, start)];
  const t0 = performance.now();
  const sampler = setInterval(async () => {
    const u = await target.usage({ gc: true });
    rssTimeline.push(sample(Math.round((performance.now() - t0) / 1000), u));
  }, windowS * 1000);
  const samples: { atMs: number; latencyMs: number }[] = [];
  const result = await load({
    url: target.url,
    requests: mix,
    durationS,
    connections,
    onResponse: (_status, latencyMs) => samples.push({ atMs: performance.now() - t0, latencyMs }),
  });
  clearInterval(sampler);
  const end = await target.usage({ gc: true });
  const windowOf = (fromS: number, toS: number) => samples.filter((s) => s.atMs >= fromS * 1000 && s.atMs < toS * 1000).map((s) => s.latencyMs);
  const first = windowOf(0, windowS);
  const last = windowOf(durationS - windowS, durationS);
  report = {
    startedAt,
    durationS,
    connections,
    warmupS,
    requests: result.requests,
    reqPerSec: result.reqPerSec,
    errors: result.failures,
    statuses: result.statuses,
    overall: { p50Ms: result.p50Ms, p99Ms: result.p99Ms },
    first10s: { count: first.length, p50Ms: percentile(first, 50), p99Ms: percentile(first, 99) },
    last10s: { count: last.length, p50Ms: percentile(last, 50), p99Ms: percentile(last, 99) },
    rss: {
      startMb: start.rssKb / 1024,
      endMb: end.rssKb / 1024,
      peakMb: end.maxRssKb / 1024,
      growthPct: ((end.rssKb - start.rssKb) / start.rssKb) * 100,
      timeline: rssTimeline,
    },
    heap: { startMb: start.heapUsedKb / 1024, endMb: end.heapUsedKb / 1024, growthPct: ((end.heapUsedKb - start.heapUsedKb) / start.heapUsedKb) * 100 },
    cpuMicrosPerRequest: (end.cpuMicros - start.cpuMicros) / Math.max(result.requests, 1),
  };
} finally {
  await target.stop();
}
const after = await machine();

console.log(`\nsoak ${startedAt}: ${durationS} s at ${connections} connections, ${mix.length} operations in turn, after ${warmupS} s warm-up`);
console.log(
  `requests ${report.requests} (${fixed(report.reqPerSec, 0)} req/s), errors (non-2xx, socket errors, timeouts) ${report.errors}, statuses ${JSON.stringify(report.statuses)}`,
);
console.log(`server CPU per request ${fixed(report.cpuMicrosPerRequest, 0)} µs`);
console.log(
  table(
    ["window", "responses", "p50 ms", "p99 ms"],
    [
      [`first ${windowS} s`, report.first10s.count, fixed(report.first10s.p50Ms, 2), fixed(report.first10s.p99Ms, 2)],
      [`last ${windowS} s`, report.last10s.count, fixed(report.last10s.p50Ms, 2), fixed(report.last10s.p99Ms, 2)],
      ["drift (last/first)", "", fixed(report.last10s.p50Ms / report.first10s.p50Ms, 2) + "×", fixed(report.last10s.p99Ms / report.first10s.p99Ms, 2) + "×"],
    ],
  ),
);
console.log(
  `RSS start ${fixed(report.rss.startMb)} MB, end ${fixed(report.rss.endMb)} MB (growth ${fixed(report.rss.growthPct)} %), peak ${fixed(report.rss.peakMb)} MB; timeline (s: RSS/heap used/heap total/external MB) ${report.rss.timeline.map((s) => `${s.atS}:${fixed(s.rssMb, 0)}/${fixed(s.heapMb, 0)}/${fixed(s.heapTotalMb, 0)}/${fixed(s.externalMb, 0)}`).join(" ")}`,
);
console.log(
  `heap retained after a full GC: start ${fixed(report.heap.startMb)} MB, end ${fixed(report.heap.endMb)} MB (growth ${fixed(report.heap.growthPct)} %; the store keeps every notification created, by design)`,
);
const checks = { "0 errors": report.errors === 0, "RSS growth < 20 %": report.rss.growthPct < 20 };
for (const [name, ok] of Object.entries(checks)) console.log(`  ${ok ? "PASS" : "MISS"}  ${name}`);
console.log(`machine: ${before.cpus} × ${before.cpuModel}, load average before ${before.loadavg.join(" ")}, after ${after.loadavg.join(" ")}`);
mkdirSync(here("results"), { recursive: true });
writeFileSync(here("results/soak.json"), JSON.stringify({ ...report, checks, machine: { ...before, loadavgAfter: after.loadavg } }, null, 2));
console.log("written bench/results/soak.json");

writeReadmeBlock(
  "soak",
  [
    `**npm run bench:soak** (\`bench/soak.ts\`), ${startedAt}, ${durationS} s at ${connections} connections (${machineLine(before, after)}):`,
    "",
    markdownTable(
      ["requests", "req/s", "errors", `p50 first / last ${windowS} s`, `p99 first / last ${windowS} s`, "RSS start → end (after GC)", "retained heap start → end"],
      [
        [
          report.requests,
          fixed(report.reqPerSec, 0),
          report.errors,
          `${fixed(report.first10s.p50Ms, 2)} / ${fixed(report.last10s.p50Ms, 2)} ms`,
          `${fixed(report.first10s.p99Ms, 2)} / ${fixed(report.last10s.p99Ms, 2)} ms`,
          `${fixed(report.rss.startMb, 0)} → ${fixed(report.rss.endMb, 0)} MB (${fixed(report.rss.growthPct)} %)`,
          `${fixed(report.heap.startMb)} → ${fixed(report.heap.endMb)} MB`,
        ],
      ],
      0,
    ),
  ].join("\n"),
);
process.exitCode = Object.values(checks).every(Boolean) ? 0 : 1;
