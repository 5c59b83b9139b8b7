// One autocannon run against a target, with the figures the benchmark reports.
import autocannon from "autocannon";
import type { BenchRequest } from "./fixtures.js";

export interface LoadResult {
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses that were not 2xx, plus socket errors and timeouts: must stay 0. */
  failures: number;
  statuses: Record<string, number>;
}

export interface LoadOptions {
  /** Base URL ending in `/v1`. */
  url: string;
  /** Sent in turn on every connection. */
  requests: BenchRequest[];
  durationS: number;
  connections: number;
  /** Called for every response with its latency (ms); the soak uses it for drift. */
  onResponse?: (status: number, latencyMs: number) => void;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const base = new URL(options.url);
  const statuses: Record<string, number> = {};
  // autocannon's own histogram keeps whole milliseconds; the per-response time is a float.
  const latencies: number[] = [];
  let instance!: autocannon.Instance;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: base.origin,
        connections: options.connections,
        duration: options.durationS,
        requests: options.requests.map((r) => ({
          method: r.method,
          path: base.pathname + r.path,
          headers: r.headers,
          body: r.body,
        })),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  instance.on("response", (_client, status, _bytes, latencyMs) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    latencies.push(latencyMs);
    options.onResponse?.(status, latencyMs);
  });
  const result = await done;
  return {
    requests: result.requests.total,
    reqPerSec: result.requests.average,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    failures: result.non2xx + result.errors + result.timeouts,
    statuses,
  };
}

/** The p-th percentile (nearest rank) of latencies in ms; sorts a copy. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
