// The conformance suite as a library: the checks, the runner and the reports that
// `authsvc-api conformance` prints (cli/conformance.ts), for use from other test runners.
export {
  checks,
  runCheck,
  runChecks,
  runFailed,
  skipReason,
  summary,
  outcomeLine,
  table,
  TargetUnreachable,
  type Check,
  type Fixtures,
  type Need,
  type Outcome,
  type Target,
} from "./suite.js";
export { jsonReport, type JsonReport } from "./report.js";
export { parseFixtures, readFixtures, FixturesError } from "./fixtures.js";
export { exampleFixtures } from "./calls.js";
export { preflight } from "./preflight.js";
export { listChecks } from "./list-checks.js";
export { runWorkflows, workflowSteps, workflowsFile, type StepCheck, type WorkflowOptions } from "./workflows.js";
export { defaultLimits, type Limits } from "./bounded-fetch.js";
export { HostileAnswer } from "./errors.js";
export { StallGuard } from "./stall.js";
