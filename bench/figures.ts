// Prints the last results of bench, bench:scale and soak (bench/results/*.json) as the
// Markdown tables bench/README.md's "Latest figures" keeps, so it quotes exactly what ran.
import { existsSync, readFileSync } from "node:fs";
import { fixed } from "./lib/report.js";

const read = (name: string) => {
  const file = new URL(`results/${name}.json`, import.meta.url);
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
};
const md = (headers: string[], rows: (string | number)[][], textColumns = 1) =>
  [`| ${headers.join(" | ")} |`, `|${headers.map((_, i) => (i < textColumns ? "---" : "---:")).join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
const machine = (m: { cpus: number; cpuModel: string; node: string; loadavg: number[]; loadavgAfter: number[] }) =>
  `${m.cpus} × ${m.cpuModel}, Node ${m.node}; load average (1/5/15 min) ${m.loadavg.join(" / ")} before, ${m.loadavgAfter.join(" / ")} after`;

const bench = read("latest");
if (bench) {
  console.log(`**npm run bench**, ${bench.startedAt} (${machine(bench.machine)}):\n`);
  console.log(
    md(
      ["target", "scenario", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "peak RSS MB", "cold start ms"],
      bench.rows.map((r: any) => [
        r.target,
        r.scenario,
        fixed(r.reqPerSec, 0),
        fixed(r.p50Ms, 2),
        fixed(r.p99Ms, 2),
        fixed(r.cpuMicrosPerRequest, 0),
        fixed(r.peakRssMb, 0),
        fixed(r.coldStartMs, 0),
      ]),
      2,
    ),
  );
  console.log("\nGET widget, target ÷ baseline:\n");
  console.log(
    md(
      ["target", "versus", "req/s ×", "CPU/request ×"],
      bench.ratios.map((r: any) => [r.target, r.versus, fixed(r.reqPerSec, 2), fixed(r.cpuPerRequest, 2)]),
      2,
    ),
  );
  console.log("");
}
const scale = read("scale");
if (scale) {
  console.log(`**npm run bench:scale**, ${scale.startedAt} (${machine(scale.machine)}):\n`);
  console.log(
    md(
      ["reports", "generate ms", "bulk load ms", "RSS per 100k MB", "heap per 100k MB"],
      scale.results.map(({ info }: any) => [info.count, fixed(info.generateMs, 0), fixed(info.loadMs, 0), fixed(info.rssPer100kMb), fixed(info.heapPer100kMb)]),
    ),
  );
  console.log("");
  const names: string[] = scale.results[0].info.direct.map((d: any) => d.name);
  console.log(
    md(
      ["query", ...scale.results.flatMap(({ info }: any) => [`${info.count / 1000}k store p50`, `${info.count / 1000}k HTTP p50 / p99`])],
      names.map((name, i) => [
        name,
        ...scale.results.flatMap(({ info, http }: any) => [fixed(info.direct[i].p50Ms, 3), `${fixed(http[i].p50Ms, 2)} / ${fixed(http[i].p99Ms, 2)}`]),
      ]),
    ),
  );
  console.log("\n(times in ms)\n");
}
const soak = read("soak");
if (soak) {
  console.log(`**npm run bench:soak**, ${soak.startedAt} (${machine(soak.machine)}):\n`);
  console.log(
    md(
      ["requests", "req/s", "errors", "p50 first / last 10 s", "p99 first / last 10 s", "RSS start → end (after GC)", "retained heap start → end"],
      [
        [
          soak.requests,
          fixed(soak.reqPerSec, 0),
          soak.errors,
          `${fixed(soak.first10s.p50Ms, 2)} / ${fixed(soak.last10s.p50Ms, 2)} ms`,
          `${fixed(soak.first10s.p99Ms, 2)} / ${fixed(soak.last10s.p99Ms, 2)} ms`,
          `${fixed(soak.rss.startMb, 0)} → ${fixed(soak.rss.endMb, 0)} MB (${fixed(soak.rss.growthPct)} %)`,
          `${fixed(soak.heap.startMb)} → ${fixed(soak.heap.endMb)} MB`,
        ],
      ],
    ),
  );
}
