// The scale target: a server process whose store holds the demo seed plus SCALE_COUNT
// generated reports in application A. Before listening it measures, in-process, the bulk
// load time, the RSS the reports add, and each query straight through the store.
import { performance } from "node:perf_hooks";
import { pino } from "pino";
import { startServer } from "../../server/reference-server.js";
import { loadSeed } from "../../server/seed/load.js";
import { createStore } from "../../server/store/memory.js";
import { serveForBench } from "../lib/child.js";
import { percentile } from "../lib/load.js";
import { generateReports } from "./generate.js";
import { queries } from "./queries.js";

const count = Number(process.env.SCALE_COUNT);
const applicationId = "app_8c1f5e20d9b4";
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const rssMb = () => (gc(), process.memoryUsage().rss / 2 ** 20);
const heapMb = () => process.memoryUsage().heapUsed / 2 ** 20;

await serveForBench(async () => {
  const store = createStore(loadSeed());
  const rssBefore = rssMb();
  const heapBefore = heapMb();
  let t = performance.now();
  let records: ReturnType<typeof generateReports> | undefined = generateReports({ count, applicationId, organizationId: "org_4b7d2e91c0a3" });
  const generateMs = performance.now() - t;
  t = performance.now();
  await store.addReports(applicationId, records);
  const loadMs = performance.now() - t;
  records = undefined;
  const rssAfter = rssMb();
  const heapAfter = heapMb();

  const direct = [];
  for (const q of queries) {
    const times: number[] = [];
    let matched = 0;
    const until = performance.now() + 1500;
    while (times.length < 20 || (performance.now() < until && times.length < 2000)) {
      const start = performance.now();
      const page = await store.encryptionReports(applicationId, q.filters, { limit: q.limit, page: q.page });
      times.push(performance.now() - start);
      matched = page.meta.total_count;
    }
    direct.push({ name: q.name, calls: times.length, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), matched });
  }

  const server = await startServer({ store, rateLimit: false, validateResponses: false, logger: pino({ level: "warn" }) });
  return {
    url: server.url,
    info: {
      count,
      generateMs,
      loadMs,
      rssBeforeMb: rssBefore,
      rssAfterMb: rssAfter,
      rssPer100kMb: ((rssAfter - rssBefore) / count) * 100_000,
      heapPer100kMb: ((heapAfter - heapBefore) / count) * 100_000,
      direct,
    },
  };
});
