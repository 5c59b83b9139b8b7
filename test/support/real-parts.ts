// The one place that decides what a suite does when a real part it needs (PostgreSQL,
// Chromium, this repository's git history) cannot run here. On a contributor's machine it
// skips, saying why: printed once, and appended to SKIP_REPORT_FILE, which .ci/run prints
// after its summary. Under CI (the CI variable set, as .ci/run and CI services set it) it
// fails instead, so CI cannot go green with a real part untested. A part turned off on
// purpose (TEST_POSTGRES=off, the inner loop's default) is a skip everywhere: the run asked.
import { appendFileSync, existsSync } from "node:fs";

/** Why a real part cannot run here. */
export interface Missing {
  /** What is missing, as a suite names it: `PostgreSQL`, `Chromium`, … */
  part: string;
  reason: string;
  /** Turned off by the run itself (not missing from the machine). */
  deliberate?: boolean;
}

export type Decision = { kind: "run" } | { kind: "skip"; reason: string } | { kind: "fail"; reason: string };

/** Whether the environment is a CI run: `CI` set to anything but empty, `0` or `false`. */
export const underCi = (env: NodeJS.ProcessEnv = process.env): boolean => {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
};

/** Run, skip (with the reason) or fail (under CI), for a part that is present or `missing`. */
export function decide(missing: Missing | undefined, env: NodeJS.ProcessEnv = process.env): Decision {
  if (missing === undefined) return { kind: "run" };
  const reason = `${missing.part} tests skipped: ${missing.reason}`;
  if (missing.deliberate || !underCi(env)) return { kind: "skip", reason };
  return { kind: "fail", reason: `${missing.part} is required under CI=${env.CI} and cannot run here: ${missing.reason}` };
}

/**
 * Applies the decision: undefined to run; the skip reason (already reported) to skip; throws
 * under CI, which fails the suite's file. Call once per test file, at its top level.
 */
export function realPart(missing: Missing | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const decision = decide(missing, env);
  if (decision.kind === "fail") throw new Error(decision.reason);
  if (decision.kind === "run") return undefined;
  console.warn(`SKIPPED ${decision.reason}`);
  if (env.SKIP_REPORT_FILE) appendFileSync(env.SKIP_REPORT_FILE, `${decision.reason}\n`);
  return decision.reason;
}

/** Debian's Chromium, which the browser suites drive through playwright-core. */
export const chromiumPath = "/usr/bin/chromium";

/** Its flags: headless, no sandbox (root in CI), and none of its own traffic (updates, sync, QUIC). */
export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Why Chromium cannot run here, or undefined. */
export const chromiumMissing = (path = chromiumPath): Missing | undefined =>
  existsSync(path) ? undefined : { part: "Chromium", reason: `${path} is missing: apt-get install -y chromium (.ci/run does this)` };
