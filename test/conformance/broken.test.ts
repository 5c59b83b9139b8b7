// The suite can fail: against a double that returns a wrong `type`, a missing field and a
// 200 without credentials, the very checks that run against mock and server fail and
// their messages name what broke.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { breakages, startBrokenTarget } from "./broken-target.js";
import { exampleFixtures } from "../../conformance/calls.js";
import { operations } from "../../generated/operations.js";
import { runChecks, summary, type Outcome, type Target } from "../../conformance/suite.js";

describe("conformance: a broken target", () => {
  let close: () => Promise<void>;
  let target: Target;
  let outcomes: Outcome[];
  const outcome = (name: string) => {
    const found = outcomes.find((o) => o.check.name.startsWith(name));
    if (!found) throw new Error(`no check named ${name}…`);
    return found;
  };

  beforeAll(async () => {
    const double = await startBrokenTarget();
    close = double.close;
    target = { name: "broken double", baseUrl: double.url, apiKey: "ak_any", apiSecret: "as_any", stateful: false, fixtures: exampleFixtures() };
    outcomes = await runChecks(target);
  });
  afterAll(() => close?.());

  it("names the wrong type", () => {
    const { operationId, type } = breakages.wrongType;
    expect(outcome(`${operationId}: 200`)).toMatchObject({
      status: "failed",
      detail: `type: expected "api.application.widget.read", got "${type}"`,
    });
  });

  it("names the missing field", () => {
    const { operationId, field } = breakages.missingField;
    const { status, detail } = outcome(`${operationId}: 200`);
    expect(status).toBe("failed");
    expect(detail).toContain("does not match the 200 response schema");
    expect(detail).toContain(`must have required property '${field}'`);
  });

  it("names the 200 without credentials, on every operation", () => {
    const unauthorized = outcomes.filter((o) => o.check.name.includes("401 problem without credentials"));
    expect(unauthorized).toHaveLength(Object.keys(operations).length);
    for (const o of unauthorized) expect(o).toMatchObject({ status: "failed", detail: expect.stringMatching(/^status: expected 401, got 200/) });
  });

  it("passes what the double does right, so each failure is the breakage and not noise", () => {
    expect(outcome("findWebhooks: 200").status).toBe("passed");
    expect(outcome("createNotification: 200").status).toBe("passed");
  });

  it("counts the failures in the summary", () => {
    const failed = outcomes.filter((o) => o.status === "failed").length;
    expect(failed).toBeGreaterThan(10);
    expect(summary(target, outcomes)).toContain(`${failed} failed`);
  });
});
