// The breaking-change gate: the working tree's document against the last release
// (baseline.ts). Fails when a change breaks existing clients and the major version was not
// raised; passes, saying so, when there is no release yet. Run by the test suite
// (test/versioning/gate.test.ts) and as `npm run gate`.
import { fileURLToPath } from "node:url";
import { diffDocuments, type DiffResult } from "../diff/index.js";
import { render, verdict } from "../diff/format.js";
import { bundleSource } from "../diff/load.js";
import { describeBaseline, findBaseline, type Baseline } from "./baseline.js";

export interface GateResult {
  passed: boolean;
  baseline: Baseline;
  diff?: DiffResult;
  /** What the gate prints. */
  report: string;
}

export function runGate(repo: string): GateResult {
  const baseline = findBaseline(repo);
  const notes = baseline.notes.map((note) => `gate: ${note}`);
  if (baseline.kind === "none") {
    return { passed: true, baseline, report: [...notes, "gate: no release yet: nothing to compare with; passing."].join("\n") };
  }
  const diff = diffDocuments(baseline.document, bundleSource(repo));
  const lines = [...notes, `gate: baseline ${describeBaseline(baseline)}`];
  if (diff.failed) lines.push(render(diff, "text").trimEnd());
  else lines.push(`gate: ${diff.changes.length} change(s) since the release. ${verdict(diff)}`);
  if (diff.failed) lines.push("gate: raise the major version (package.json and info.version) or make the change additive; docs/versioning.md");
  return { passed: !diff.failed, baseline, diff, report: lines.join("\n") };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = runGate(process.argv[2] ?? process.cwd());
  console.log(result.report);
  process.exitCode = result.passed ? 0 : 1;
}
