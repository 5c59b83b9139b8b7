// `npm run bench:amplification`: the attack's amplification finding as a benchmark. Four
// connections send PUT /sms/providers/{id} with a 99 kB body of 33,000 empty `patterns` for
// 20 s while one client reads GET /widgets/{id} in a loop; the reader's p50/p99 unloaded and
// loaded, and the server's RSS before, during (sampled every 250 ms) and after the attack.
// Target: loaded p99 under 3× unloaded, RSS growth under 20% once the attack is over (2 s
// later, no forced GC): what the attack leaves behind. During the attack the RSS follows the
// V8 heap's garbage between two collections; its median and maximum are printed beside it.
// Knobs: AMP_DURATION (s, 20), AMP_CONNECTIONS (4), AMP_BASELINE (s, 10).
import { performance } from "node:perf_hooks";
import { bearer, demo } from "./lib/fixtures.js";
import { load } from "./lib/load.js";
import { fixed, machine, table } from "./lib/report.js";
import { spawnTarget } from "./lib/spawn.js";

const durationS = Number(process.env.AMP_DURATION ?? 20);
const connections = Number(process.env.AMP_CONNECTIONS ?? 4);
const baselineS = Number(process.env.AMP_BASELINE ?? 10);

const body = JSON.stringify({ patterns: Array<string>(33_000).fill("") });
const widget = `/widgets/${demo.widgetId}`;

/** Reader requests that got no 200 (a reset connection, another status). */
let readerFailures = 0;

/** One client reading the widget back to back for `seconds`; the latency in ms of every 200. */
async function reader(url: string, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    const status = await fetch(url + widget, { headers: bearer }).then(
      async (response) => (await response.arrayBuffer(), response.status),
      () => 0,
    );
    if (status === 200) latencies.push(performance.now() - started);
    else readerFailures++;
  }
  return latencies;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

const target = await spawnTarget(new URL("./targets/server.ts", import.meta.url).pathname, { path: widget, headers: bearer });
try {
  await reader(target.url, 2); // warm-up
  const rssBefore = (await target.usage()).rssKb / 1024;
  const unloaded = await reader(target.url, baselineS);
  const during: number[] = [];
  const sampler = setInterval(
    () =>
      void target.usage().then(
        (usage) => during.push(usage.rssKb / 1024),
        () => {},
      ),
    250,
  );
  const [loaded, attack] = await Promise.all([
    reader(target.url, durationS),
    load({
      url: target.url,
      requests: [{ method: "PUT", path: `/sms/providers/${demo.smsProviderId}`, headers: { ...bearer, "content-type": "application/json" }, body }],
      durationS,
      connections,
    }),
  ]);
  clearInterval(sampler);
  await new Promise((settled) => setTimeout(settled, 2000));
  const after = await target.usage();
  const rssAfter = after.rssKb / 1024;
  const ratio = percentile(loaded, 99) / percentile(unloaded, 99);
  const growth = (rssAfter - rssBefore) / rssBefore;
  console.log(
    table(
      ["reader", "requests", "p50 ms", "p99 ms"],
      [
        ["unloaded", unloaded.length, fixed(percentile(unloaded, 50)), fixed(percentile(unloaded, 99))],
        [`with ${connections} attack connections`, loaded.length, fixed(percentile(loaded, 50)), fixed(percentile(loaded, 99))],
      ],
    ),
  );
  console.log(
    `\nattack: ${attack.requests} requests (${fixed(attack.reqPerSec)}/s, statuses ${JSON.stringify(attack.statuses)}), attack p50/p99 ${fixed(attack.p50Ms)}/${fixed(attack.p99Ms)} ms`,
  );
  console.log(`reader requests without a 200 (reset or other status): ${readerFailures}`);
  const signed = (mb: number) => `${mb >= rssBefore ? "+" : ""}${fixed(((mb - rssBefore) / rssBefore) * 100)}%`;
  console.log(
    `server RSS before ${fixed(rssBefore)} MB; during the attack median ${fixed(percentile(during, 50))} MB (${signed(percentile(during, 50))}), max sampled ${fixed(Math.max(...during))} MB, peak ${fixed(after.maxRssKb / 1024)} MB; 2 s after ${fixed(rssAfter)} MB (${signed(rssAfter)})`,
  );
  console.log(
    `reader p99 loaded/unloaded ${fixed(ratio, 2)}× (target < 3×: ${ratio < 3 ? "met" : "missed"}); RSS growth target < 20%: ${growth < 0.2 ? "met" : "missed"}`,
  );
  console.log("machine:", JSON.stringify(await machine()));
} finally {
  await target.stop();
}
