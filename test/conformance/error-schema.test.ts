// The schema an error answer is judged by in the workflow steps (conformance/document.ts):
// the one the operation declares for that status (a 501: NotImplementedProblem), else
// Problem. Each side with a body that must fail it.
import { describe, expect, it } from "vitest";
import { errorSchemaErrors } from "../../conformance/document.js";
import { isNotImplemented } from "../../conformance/http.js";
import { namedExample } from "../support/document.js";

describe("errorSchemaErrors", () => {
  it("a 501: the documented NotImplementedProblem passes; a problem with another code fails", () => {
    const documented = namedExample("ReadWebhookNotImplementedProblem");
    expect(errorSchemaErrors("readWebhook", 501, documented)).toBeUndefined();
    expect(errorSchemaErrors("readWebhook", 501, { ...(documented as object), code: "internal_error" })).toBe("body/code must be equal to constant");
  });

  it("a status the operation declares with Problem (404): a Problem passes, a body without `code` fails", () => {
    const documented = namedExample("ReadWebhookNotFoundProblem");
    expect(errorSchemaErrors("readWebhook", 404, documented)).toBeUndefined();
    const { code: _, ...withoutCode } = documented as { code: string };
    expect(errorSchemaErrors("readWebhook", 404, withoutCode)).toMatch(/must have required property 'code'/);
  });

  it("a status the operation does not declare (418): judged as a Problem", () => {
    expect(errorSchemaErrors("readWebhook", 418, { type: "about:blank", title: "x", status: 418, code: "not_implemented" })).toMatch(/allowed values/);
  });
});

// What --skip-not-implemented takes for the documented 501 (conformance/http.ts).
describe("isNotImplemented", () => {
  const body = { type: "https://api.authsvc.example/problems/not_implemented", status: 501, code: "not_implemented" };
  it("a 501 problem whose code is not_implemented, and nothing else", () => {
    expect(isNotImplemented(501, "application/problem+json; charset=utf-8", body)).toBe(true);
    expect(isNotImplemented(501, "application/json", body)).toBe(false);
    expect(isNotImplemented(501, undefined, body)).toBe(false);
    expect(isNotImplemented(500, "application/problem+json", body)).toBe(false);
    expect(isNotImplemented(501, "application/problem+json", { ...body, code: "internal_error" })).toBe(false);
    expect(isNotImplemented(501, "application/problem+json", "not_implemented")).toBe(false);
  });
});
