// The run can fail: against a double that returns a wrong `type`, a missing field and a
// 200 without credentials, the very workflow steps and checks that run against mock and
// server fail and their messages name what broke.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { breakages, startBrokenTarget } from "./broken-target.js";
import { exampleFixtures } from "../../conformance/calls.js";
import { operations } from "../../generated/operations.js";
import { runChecks, summary, type Outcome, type Target } from "../../conformance/suite.js";
import { runWorkflows } from "../../conformance/workflows.js";

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
    outcomes = [...(await runWorkflows(target)), ...(await runChecks(target))];
  }, 60_000);
  afterAll(() => close?.());

  it("names the wrong type (the widget step of a workflow)", () => {
    const { operationId } = breakages.wrongType;
    const { status, detail } = outcome(`${operationId}: workflow widget-and-user-activity, step widget`);
    expect(status).toBe("failed");
    expect(detail).toContain("schema check");
    expect(detail).toContain("body/type must be equal to constant");
  });

  it("names the missing field (the read step of a workflow)", () => {
    const { operationId, field } = breakages.missingField;
    const { status, detail } = outcome(`${operationId}: workflow webhooks-list-read-history, step read`);
    expect(status).toBe("failed");
    expect(detail).toContain("does not match the 200 response schema");
    expect(detail).toContain(`must have required property '${field}'`);
  });

  it("names the key pair that is not asked for (the key alone answers 200)", () => {
    const { status, detail } = outcome("createNotification: workflow notification-types, step key-without-secret");
    expect(status).toBe("failed");
    expect(detail).toMatch(/→ 200: success criteria check/);
  });

  it("names the 200 without credentials, on every operation", () => {
    const unauthorized = outcomes.filter((o) => o.check.name.includes("401 problem without credentials"));
    expect(unauthorized).toHaveLength(Object.keys(operations).length);
    for (const o of unauthorized) expect(o).toMatchObject({ status: "failed", detail: expect.stringMatching(/^status: expected 401, got 200/) });
  });

  it("passes what the double does right, so each failure is the breakage and not noise", () => {
    expect(outcome("findWebhooks: workflow webhooks-list-read-history, step list").status).toBe("passed");
    expect(outcome("createNotification: workflow notification-types, step simple").status).toBe("passed");
  });

  it("counts the failures in the summary", () => {
    const failed = outcomes.filter((o) => o.status === "failed").length;
    expect(failed).toBeGreaterThan(10);
    expect(summary(target, outcomes)).toContain(`${failed} failed`);
  });
});
