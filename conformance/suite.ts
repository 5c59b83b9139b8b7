// The conformance suite, defined once: the list of checks, how one runs against a target,
// and the report. The vitest files and `authsvc-api conformance` both run exactly this.
import type { Check } from "./check.js";
import { contractChecks } from "./contract-checks.js";
import { ConformanceError } from "./expect.js";
import { stateChecks } from "./state-checks.js";
import type { Target } from "./target.js";

export type { Check, Need } from "./check.js";
export type { Fixtures, Target } from "./target.js";

/** Every check, contract checks first. */
export const checks: Check[] = [...contractChecks, ...stateChecks];

export interface Outcome {
  check: Check;
  status: "passed" | "failed" | "skipped";
  /** What broke (failed) or why the check did not run (skipped). */
  detail?: string;
}

/** Why the check cannot run against this target, or undefined when it can. */
export function skipReason(check: Check, target: Target): string | undefined {
  if (check.statefulBecause && !target.stateful) return `needs a stateful target: ${check.statefulBecause}`;
  const missing = (check.needs ?? []).filter((need) => (need === "apiSecret" ? !target.apiSecret : !target.fixtures[need]));
  if (missing.length === 0) return undefined;
  const fixtures = missing.filter((need) => need !== "apiSecret");
  return [
    ...(fixtures.length > 0 ? [`needs ${fixtures.join(", ")} in the fixtures file (--fixtures)`] : []),
    ...(missing.includes("apiSecret") ? ["needs --api-secret"] : []),
  ].join("; ");
}

// A ConformanceError is a judgement; anything else is a refused connection or a bug, shown
// with its cause (fetch hides ECONNREFUSED there) and, for bugs, where it happened.
function describe(error: unknown): string {
  if (error instanceof ConformanceError) return error.message;
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  if (cause) return `${error.message}: ${cause.code ?? cause.message}`;
  return error.stack ?? error.message;
}

export async function runCheck(check: Check, target: Target): Promise<Outcome> {
  const reason = skipReason(check, target);
  if (reason) return { check, status: "skipped", detail: reason };
  try {
    await check.run(target);
    return { check, status: "passed" };
  } catch (error) {
    return { check, status: "failed", detail: describe(error) };
  }
}

/** Runs every check in order (state checks change and restore the target, so not in parallel). */
export async function runChecks(target: Target, selected: Check[] = checks): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const check of selected) outcomes.push(await runCheck(check, target));
  return outcomes;
}

/** `conformance [mock]: 58 checks, 45 ran (45 passed, 0 failed), 13 skipped` plus a line per skip reason. */
export function summary(target: Target, outcomes: Outcome[]): string {
  const count = (status: Outcome["status"]) => outcomes.filter((o) => o.status === status).length;
  const ran = count("passed") + count("failed");
  const reasons = new Map<string, number>();
  for (const o of outcomes) if (o.status === "skipped") reasons.set(o.detail!, (reasons.get(o.detail!) ?? 0) + 1);
  return [
    `conformance [${target.name}]: ${outcomes.length} checks, ${ran} ran (${count("passed")} passed, ${count("failed")} failed), ${count("skipped")} skipped`,
    ...[...reasons].map(([reason, n]) => `  skipped ${n}: ${reason}`),
    ...(target.stateful ? [] : [`  note: a stateless target cannot know ids; the 404 checks asked for the documented 404 with "Prefer: code=404"`]),
  ].join("\n");
}

/** One line per check: status, name, and what broke or why it was skipped. */
export function table(outcomes: Outcome[]): string {
  const mark = { passed: "PASS", failed: "FAIL", skipped: "SKIP" } as const;
  return outcomes
    .map((o) => `${mark[o.status]}  ${o.check.name}${o.detail ? `\n        ${o.detail.replace(/\n/g, "\n        ")}` : ""}`)
    .join("\n");
}
