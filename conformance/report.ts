// The machine-readable report of `authsvc-api conformance --format json`, for CI: the
// totals and one entry per workflow step and per check, in run order.
import { doc } from "./document.js";
import type { Outcome } from "./suite.js";
import type { Target } from "./target.js";

export interface JsonReport {
  target: { name: string; baseUrl: string; stateful: boolean; fixtures: string[] };
  /** The version of the contract the checks hold the target to. */
  contract: string;
  totals: { checks: number; passed: number; failed: number; skipped: number };
  /** `workflow` names the Arazzo workflow of a step (run by Respect); a check of the TypeScript suite has none. */
  checks: { name: string; operationId: string; workflow?: string; status: Outcome["status"]; detail?: string }[];
}

export function jsonReport(target: Target, outcomes: Outcome[]): JsonReport {
  const count = (status: Outcome["status"]) => outcomes.filter((o) => o.status === status).length;
  return {
    // The fixture names, never the other application's credentials.
    target: { name: target.name, baseUrl: target.baseUrl, stateful: target.stateful, fixtures: Object.keys(target.fixtures).sort() },
    // The contract the checks hold the target to: the version of this package's document.
    contract: doc.info.version as string,
    totals: { checks: outcomes.length, passed: count("passed"), failed: count("failed"), skipped: count("skipped") },
    checks: outcomes.map((o) => ({
      name: o.check.name,
      operationId: o.check.operationId,
      ...((o.check as { workflow?: string }).workflow ? { workflow: (o.check as { workflow?: string }).workflow } : {}),
      status: o.status,
      ...(o.detail !== undefined ? { detail: o.detail } : {}),
    })),
  };
}
