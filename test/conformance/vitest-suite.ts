// Registers the suite as vitest tests, one per check, for a target a test file starts.
// Skipped checks are reported as skipped with their reason, and the summary (how many ran,
// how many were skipped and why) is printed once the target has been checked.
import { afterAll, beforeAll, describe, it } from "vitest";
import { checks, runCheck, summary, type Outcome } from "../../conformance/suite.js";
import type { Target } from "../../conformance/target.js";

export interface StartedTarget {
  target: Target;
  close(): Promise<void>;
}

export function conformanceSuite(name: string, start: () => Promise<StartedTarget>): void {
  describe(`conformance: ${name}`, () => {
    let started: StartedTarget | undefined;
    const outcomes: Outcome[] = [];

    beforeAll(async () => {
      started = await start();
    });
    afterAll(async () => {
      await started?.close();
      if (started) console.log(summary(started.target, outcomes));
    });

    for (const check of checks) {
      it(check.name, async (context) => {
        const outcome = await runCheck(check, started!.target);
        outcomes.push(outcome);
        if (outcome.status === "skipped") context.skip(outcome.detail);
        if (outcome.status === "failed") throw new Error(outcome.detail);
      });
    }
  });
}
