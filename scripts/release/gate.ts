// The release gate: the working tree's document against the last release (baseline.ts).
// Fails when the version does not cover the changes: a breaking change needs a new major
// version, an addition (operation, field, enum value, parameter, …) at least a new minor
// (docs/versioning.md); fails when the last release's tag cannot be read. Passes, saying
// so, when there is no release yet. Its last line is the result and names the baseline. Run by the test
// suite (test/versioning/gate.test.ts), as `npm run gate` (exit 1 on failure) and before
// publishing.
import { fileURLToPath } from "node:url";
import { render, verdict } from "../diff/format.js";
import { diffFiles, type DiffResult } from "../diff/index.js";
import { bundleSource } from "../diff/load.js";
import { describeBaseline, findBaseline, type Baseline } from "./baseline.js";

export interface GateResult {
  passed: boolean;
  baseline: Baseline;
  diff?: DiffResult;
  /** What the gate prints. */
  report: string;
}

/** What to do about a failure, by the bump the changes need. */
const advice = {
  major: "raise the major version (package.json and info.version) or make the change additive; docs/versioning.md",
  minor: "raise at least the minor version (package.json and info.version); docs/versioning.md",
  patch: "",
} as const;

export function runGate(repo: string): GateResult {
  const baseline = findBaseline(repo);
  const notes = baseline.notes.map((note) => `gate: ${note}`);
  if (baseline.kind === "none") {
    return { passed: true, baseline, report: [...notes, "gate: no release yet: nothing to compare with; passing."].join("\n") };
  }
  if (baseline.kind === "unreadable") {
    return { passed: false, baseline, report: [...notes, `gate: FAIL: ${baseline.reason}`].join("\n") };
  }
  const head = bundleSource(repo);
  try {
    const diff = diffFiles(baseline.bundle.file, head.file);
    // The last line is the result, and names the baseline: a fallback to the packed copy is
    // said where the verdict is read, with its reason.
    const since = `${diff.changes.length} change(s) since ${describeBaseline(baseline)}`;
    const lines = [...notes];
    if (diff.failed) lines.push(render(diff, "text").trimEnd(), `gate: ${advice[diff.required]}`, `gate: ${since}. ${verdict(diff)}`);
    else lines.push(`gate: ${since}. ${verdict(diff)}`);
    return { passed: !diff.failed, baseline, diff, report: lines.join("\n") };
  } finally {
    head.remove();
    baseline.bundle.remove();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = runGate(process.argv[2] ?? process.cwd());
  console.log(result.report);
  process.exitCode = result.passed ? 0 : 1;
}
