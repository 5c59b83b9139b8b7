// Every conformance check can fail: each row of the doubles table (doubles.ts) runs the
// checks and workflow steps it names against its broken double, and each must fail saying
// what broke; the table must name a double for every check and step of a run, and
// docs/testing.md must show the table as doublesTable() writes it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runChecks } from "../../conformance/suite.js";
import { runWorkflows } from "../../conformance/workflows.js";
import { allChecks, doubles, doublesTable, isStep } from "./doubles.js";

describe("the doubles table", () => {
  it("names a double that makes each check of the suite fail", () => {
    const orphans = allChecks.filter((check) => !doubles.some((double) => double.fails(check))).map((check) => check.name);
    expect(orphans).toEqual([]);
    for (const double of doubles) expect(allChecks.filter(double.fails).length, double.breaks).toBeGreaterThan(0);
  });

  it("is the table docs/testing.md shows", () => {
    const docs = readFileSync(new URL("../../docs/testing.md", import.meta.url), "utf8");
    expect(docs.includes(doublesTable()), "docs/testing.md: paste the table `npx tsx test/conformance/doubles.ts` prints").toBe(true);
  });
});

describe.each(doubles.map((double) => [double.breaks, double] as const))("a double that %s", (_, double) => {
  it("fails every check it names, saying what broke", async () => {
    const started = await double.start();
    try {
      const claimed = allChecks.filter(double.fails);
      const steps = claimed.some(isStep) ? await runWorkflows(started.target) : [];
      const outcomes = [
        ...steps.filter((o) => claimed.some((c) => c.name === o.check.name)),
        ...(await runChecks(
          started.target,
          claimed.filter((c) => !isStep(c)),
        )),
      ];
      expect(outcomes).toHaveLength(claimed.length);
      for (const outcome of outcomes) {
        expect(outcome.status, `${outcome.check.name}: ${outcome.detail}`).toBe("failed");
        expect(outcome.detail, outcome.check.name).toMatch(double.says);
      }
    } finally {
      await started.close();
    }
  }, 60_000);
});
