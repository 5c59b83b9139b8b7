// Registers the run as vitest tests for a target a test file starts, as `authsvc-api
// conformance` runs it: one per step of the Arazzo workflows (run first, in one `redocly
// respect`), then one per check; the checks that use up a record run last, on the target's
// disposable records.
// Skipped checks the target cannot run are reported as skipped with their reason (any other
// skip fails), and the summary (how many ran, how many were skipped and why) is printed once
// the target has been checked.
import { afterAll, beforeAll, describe, it, type TestContext } from "vitest";
import type { Check } from "../../conformance/check.js";
import { checks, disposablesOf, runInTurn, runOrder, summary, type Disposables, type Outcome } from "../../conformance/suite.js";
import type { Target } from "../../conformance/target.js";
import { runWorkflows, workflowSteps } from "../../conformance/workflows.js";

export interface StartedTarget {
  target: Target;
  close(): Promise<void>;
}

/**
 * `mayNotRun` names the checks the target cannot run (a stateless target's state checks); a
 * skip of any other check fails it, so a renamed fixture or need cannot quietly turn a check off.
 */
export function conformanceSuite(name: string, start: () => Promise<StartedTarget>, mayNotRun: (check: Check) => boolean = () => false): void {
  const report = (context: TestContext, outcome: Outcome) => {
    if (outcome.status === "skipped" && !mayNotRun(outcome.check)) throw new Error(`skipped, but ${name} runs this check: ${outcome.detail}`);
    if (outcome.status === "skipped") context.skip(outcome.detail);
    if (outcome.status === "failed") throw new Error(outcome.detail);
  };

  describe(`conformance: ${name}`, () => {
    let started: StartedTarget | undefined;
    const outcomes: Outcome[] = [];

    let left: Disposables = {};
    let steps: Outcome[] = [];

    beforeAll(async () => {
      started = await start();
      left = disposablesOf(started.target);
      steps = await runWorkflows(started.target);
      outcomes.push(...steps);
    }, 120_000);
    afterAll(async () => {
      await started?.close();
      if (started) console.log(summary(started.target, outcomes));
    });

    for (const step of workflowSteps()) {
      it(step.name, (context) => {
        report(context, steps.find((o) => o.check.name === step.name)!);
      });
    }

    // Vitest runs a file's tests in the order they are registered: the checks that use up a
    // record come last, each on a disposable record, as in `authsvc-api conformance`.
    for (const check of runOrder(checks)) {
      it(check.name, async (context) => {
        const outcome = await runInTurn(check, started!.target, left);
        outcomes.push(outcome);
        report(context, outcome);
      });
    }
  });
}
