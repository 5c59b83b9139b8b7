// Runs `redocly diff` (Redocly CLI, pinned in package.json) with the project's configuration,
// openapi/redocly.yaml, whose `diff:` section gives every rule the impact docs/versioning.md
// states, and reads its JSON report. The CLI bundles its engine, so it is run, not imported.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { canonicalCopy } from "./canonical.js";
import { UnreadableDocument, firstLine } from "./load.js";

export const impacts = ["patch", "minor", "major"] as const;
export type Impact = (typeof impacts)[number];

export interface Verdict {
  ruleId: string;
  impact: Impact;
  message: string;
}

/** One change as `redocly diff --format json` reports it (report version 1). */
export interface ReportedChange {
  /** Where the change is reached from, e.g. `#/paths/~1webhooks/get/parameters/1/schema`. */
  path: string;
  typeName: string;
  kind: "added" | "removed" | "modified";
  impact: Impact;
  verdicts: Verdict[];
  /** The property that changed, for `modified`. */
  property?: string;
  base?: { pointer: string; value?: unknown };
  revision?: { pointer: string; value?: unknown };
}

export interface Report {
  reportVersion: string;
  infoVersions: { base: string; revision: string };
  changes: ReportedChange[];
}

const root = fileURLToPath(new URL("../../", import.meta.url));
/** The configuration holding the project's diff policy (also its lint rules). */
export const policyConfig = join(root, "openapi/redocly.yaml");
/** The Redocly CLI of this package. */
export const redocly = join(root, "node_modules/.bin/redocly");
const quiet = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };

/** The arguments of `redocly diff` for two bundled files under the project's policy. */
export function diffArgs(baseFile: string, headFile: string): string[] {
  // --fail-on none: the verdict is this project's (index.ts), which also weighs the version.
  // --lint-config error: a misspelt rule name in the policy stops the run instead of being ignored.
  return ["diff", baseFile, headFile, "--config", policyConfig, "--format", "json", "--fail-on", "none", "--lint-config", "error"];
}

/** The environment Redocly runs in: no telemetry or update check (CI has no network), no colours. */
export const redoclyEnv = quiet;

/** Reads the JSON report `redocly diff` printed. */
export function parseReport(stdout: string): Report {
  let report: Report;
  try {
    report = JSON.parse(stdout) as Report;
  } catch {
    throw new UnreadableDocument(`redocly diff printed no JSON report: ${stdout.slice(0, 200)}`);
  }
  if (report.reportVersion !== "1") throw new UnreadableDocument(`redocly diff wrote report version ${report.reportVersion}; scripts/diff reads version 1`);
  return report;
}

/** The report of `redocly diff` on the canonical spellings (canonical.ts) of two bundled files, under the project's policy. */
export function redoclyDiff(baseFile: string, headFile: string): Report {
  const dir = mkdtempSync(join(tmpdir(), "contract-diff-"));
  try {
    const args = diffArgs(canonicalCopy(baseFile, dir, "base"), canonicalCopy(headFile, dir, "head"));
    return parseReport(execFileSync(redocly, args, { env: quiet, stdio: "pipe", maxBuffer: 256 * 1024 * 1024 }).toString());
  } catch (error) {
    if (error instanceof UnreadableDocument) throw error;
    throw new UnreadableDocument(`redocly diff failed: ${firstLine(error)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
