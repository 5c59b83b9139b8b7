// The conformance suite, defined once: the list of checks, how one runs against a target,
// and the report. The vitest files and `authsvc-api conformance` both run exactly this.
import type { Check } from "./check.js";
import { contractChecks } from "./contract-checks.js";
import { NotImplementedByTarget, notImplementedReason } from "./http.js";
import { doc } from "./document.js";
import { ConformanceError, TargetStalled } from "./errors.js";
import { listChecks } from "./list-checks.js";
import { stateChecks } from "./state-checks.js";
import type { Target } from "./target.js";

export type { Check, Need } from "./check.js";
export type { Fixtures, Target } from "./target.js";

/** Every check, contract checks first (checks that use up a record run last whatever their place). */
export const checks: Check[] = [...contractChecks, ...stateChecks, ...listChecks];

/** The target cannot be reached at all (refused, unknown host, no answer): one error, not a failure per check. */
export class TargetUnreachable extends Error {
  override name = "TargetUnreachable";
}

const connectionCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
]);

/** The connection error under a failed fetch (fetch hides it as `cause`), or undefined. */
export function connectionError(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: string; errors?: { code?: string }[] } } | undefined)?.cause;
  const code = cause?.code ?? cause?.errors?.[0]?.code;
  return code && connectionCodes.has(code) ? code : undefined;
}

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

/** Runs one check; a target that stopped answering throws TargetUnreachable instead of failing it. */
export async function runCheck(check: Check, target: Target): Promise<Outcome> {
  const reason = skipReason(check, target) ?? target.stall?.reason;
  if (reason) return { check, status: "skipped", detail: reason };
  try {
    await check.run(target);
    return { check, status: "passed" };
  } catch (error) {
    const code = connectionError(error);
    if (code) throw new TargetUnreachable(`target not reachable: ${target.baseUrl} (${code})`);
    if (error instanceof NotImplementedByTarget) return { check, status: "skipped", detail: notImplementedReason };
    if (error instanceof TargetStalled) return { check, status: "skipped", detail: error.message };
    return { check, status: "failed", detail: describe(error) };
  }
}

/** The disposable records of a run, by kind, handed out one per consuming check. */
export type Disposables = Record<string, string[]>;

/** A fresh copy of the target's disposable records, for one run. */
export const disposablesOf = (target: Target): Disposables =>
  Object.fromEntries(Object.entries(target.fixtures.disposable ?? {}).map(([kind, ids]) => [kind, [...(ids ?? [])]]));

/** The checks in the order a run takes them: the ones that use up a record after all others. */
export const runOrder = (selected: Check[]): Check[] => [...selected.filter((c) => !c.consumes), ...selected.filter((c) => c.consumes)];

/**
 * Runs one check; a check that uses up a record (`consumes`) runs on the next record of
 * `left` instead of the shared fixture, and is skipped, naming what it needs, when none is left.
 */
export async function runInTurn(check: Check, target: Target, left: Disposables): Promise<Outcome> {
  if (!check.consumes) return runCheck(check, target);
  const id = left[check.consumes]?.shift();
  return id === undefined
    ? { check, status: "skipped", detail: `uses up a ${check.consumes}: needs one more in "disposable": { "${check.consumes}": [...] } in the fixtures file` }
    : runCheck(check, { ...target, fixtures: { ...target.fixtures, [check.consumes]: id } });
}

/**
 * Runs every check in order (state checks change and restore the target, so not in
 * parallel), then the checks that use up a record, each on a disposable record of its own,
 * handing each outcome to `finished` as it comes. Outcomes keep the order of `selected`.
 */
export async function runChecks(target: Target, selected: Check[] = checks, finished: (outcome: Outcome) => void = () => {}): Promise<Outcome[]> {
  const outcomes = new Map<Check, Outcome>();
  const left = disposablesOf(target);
  for (const check of runOrder(selected)) {
    const outcome = await runInTurn(check, target, left);
    outcomes.set(check, outcome);
    finished(outcome);
  }
  return selected.map((check) => outcomes.get(check)!);
}

/** `conformance [mock]: 58 checks, 45 ran (45 passed, 0 failed), 13 skipped` plus a line per skip reason. */
export function summary(target: Target, outcomes: Outcome[], options: { failOnSkip?: boolean } = {}): string {
  const count = (status: Outcome["status"]) => outcomes.filter((o) => o.status === status).length;
  const ran = count("passed") + count("failed");
  const reasons = new Map<string, number>();
  for (const o of outcomes) if (o.status === "skipped") reasons.set(o.detail!, (reasons.get(o.detail!) ?? 0) + 1);
  return [
    `conformance [${target.name}]: ${outcomes.length} checks, ${ran} ran (${count("passed")} passed, ${count("failed")} failed), ${count("skipped")} skipped`,
    // A conformance package older or newer than the service's contract judges another contract.
    `  contract ${doc.info.version}: the document these checks hold the target to (install this package at the version of the service's contract)`,
    ...[...reasons].map(([reason, n]) => `  skipped ${n}: ${reason}`),
    ...(target.stateful ? [] : [`  note: a stateless target cannot know ids; the 404 checks asked for the documented 404 with "Prefer: code=404"`]),
    verdict(outcomes, options),
  ].join("\n");
}

/** Whether a run fails: a failed check, or with `failOnSkip` a skipped one. */
export function runFailed(outcomes: Outcome[], options: { failOnSkip?: boolean } = {}): boolean {
  return outcomes.some((o) => o.status === "failed" || (options.failOnSkip === true && o.status === "skipped"));
}

/** The last line of the summary: PASS or FAIL and why, skips counted. */
function verdict(outcomes: Outcome[], options: { failOnSkip?: boolean }): string {
  const failed = outcomes.filter((o) => o.status === "failed").length;
  const skipped = outcomes.filter((o) => o.status === "skipped").length;
  const skips = `${skipped} skipped${skipped > 0 ? (options.failOnSkip ? " (--fail-on-skip: each counts as a failure)" : " (not counted; --fail-on-skip counts them)") : ""}`;
  return `result: ${runFailed(outcomes, options) ? "FAIL" : "PASS"}: ${failed} failed, ${skips}`;
}

const mark = { passed: "PASS", failed: "FAIL", skipped: "SKIP" } as const;

/** A check's line: status and name, then what broke or why it was skipped, indented. */
export const outcomeLine = (o: Outcome): string => `${mark[o.status]}  ${o.check.name}${o.detail ? `\n        ${o.detail.replace(/\n/g, "\n        ")}` : ""}`;

/** One line per check: status, name, and what broke or why it was skipped. */
export const table = (outcomes: Outcome[]): string => outcomes.map(outcomeLine).join("\n");
