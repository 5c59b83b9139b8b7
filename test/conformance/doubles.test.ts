// Every conformance check can fail: each row of the doubles table (doubles.ts) runs the
// checks it names against its broken double, and each must fail saying what broke; the
// table must name a double for every check the suite defines, and docs/testing.md must show
// the table as doublesTable() writes it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checks, runChecks } from "../../conformance/suite.js";
import { doubles, doublesTable } from "./doubles.js";

describe("the doubles table", () => {
  it("names a double that makes each check of the suite fail", () => {
    const orphans = checks.filter((check) => !doubles.some((double) => double.fails(check))).map((check) => check.name);
    expect(orphans).toEqual([]);
    for (const double of doubles) expect(checks.filter(double.fails).length, double.breaks).toBeGreaterThan(0);
  });

  it("is the table docs/testing.md shows", () => {
    expect(readFileSync(new URL("../../docs/testing.md", import.meta.url), "utf8")).toContain(doublesTable());
  });
});

describe.each(doubles.map((double) => [double.breaks, double] as const))("a double that %s", (_, double) => {
  it("fails every check it names, saying what broke", async () => {
    const started = await double.start();
    try {
      const outcomes = await runChecks(started.target, checks.filter(double.fails));
      for (const outcome of outcomes) {
        expect(outcome.status, `${outcome.check.name}: ${outcome.detail}`).toBe("failed");
        expect(outcome.detail, outcome.check.name).toMatch(double.says);
      }
    } finally {
      await started.close();
    }
  }, 60_000);
});
