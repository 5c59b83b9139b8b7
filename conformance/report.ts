// The machine-readable report of `authsvc-api conformance --format json`, for CI: the
// totals, each skip reason with its count, and one entry per check in suite order.
import type { Outcome } from "./suite.js";
import type { Target } from "./target.js";

export interface JsonReport {
  target: { name: string; baseUrl: string; stateful: boolean; fixtures: string[] };
  totals: { checks: number; passed: number; failed: number; skipped: number };
  checks: { name: string; operationId: string; status: Outcome["status"]; detail?: string }[];
}

export function jsonReport(target: Target, outcomes: Outcome[]): JsonReport {
  const count = (status: Outcome["status"]) => outcomes.filter((o) => o.status === status).length;
  return {
    // The fixture names, never the other application's credentials.
    target: { name: target.name, baseUrl: target.baseUrl, stateful: target.stateful, fixtures: Object.keys(target.fixtures).sort() },
    totals: { checks: outcomes.length, passed: count("passed"), failed: count("failed"), skipped: count("skipped") },
    checks: outcomes.map((o) => ({
      name: o.check.name,
      operationId: o.check.operationId,
      status: o.status,
      ...(o.detail !== undefined ? { detail: o.detail } : {}),
    })),
  };
}
