// The response oracle of the fuzz, security and response-validation suites
// (test/support/document.ts) proven able to fail: each known-bad answer below must yield a
// violation naming what is wrong, and the documented example must yield none (so a
// violation is the breakage, not noise). An oracle that always answered [] would pass every
// suite that uses it; here it fails.
import { describe, expect, it } from "vitest";
import { operations, type OperationId } from "../../generated/operations.js";
import { requiredHeaders, responseViolations, successErrors, successExample } from "../support/document.js";

const operationIds = Object.keys(operations) as OperationId[];
const status = (operationId: OperationId) => (operations[operationId] as { successStatus: number }).successStatus;

/** The headers every documented answer of the status must carry, with plausible values. */
const headersOf = (operationId: OperationId, code: number) =>
  Object.fromEntries(requiredHeaders(operationId, code).map((name) => [name, name === "X-Request-Id" ? "4b8c9c1e-5b7a-4f0e-9a57-2d8e3c1b6f10" : "1"]));

/** A problem body valid against Problem. */
const problem = (code: number) => ({
  type: "about:blank",
  title: "Not Found",
  status: code,
  detail: "no widget wgt_000000000000",
  instance: "/v1/widgets/wgt_000000000000",
  code: "not_found",
});

describe.each(operationIds.map((id) => [id] as const))("%s: the response oracle", (operationId) => {
  const good = () => successExample(operationId) as { type: string; result: unknown };

  it("finds nothing wrong with the documented example and its required headers", () => {
    expect(successErrors(operationId, good())).toEqual([]);
    expect(responseViolations(operationId, status(operationId), "application/json", good(), headersOf(operationId, status(operationId)))).toEqual([]);
  });

  it("names a wrong-schema answer (envelope type, a missing field, a wrong type)", () => {
    const wrongType = { ...good(), type: "api.no.such.type" };
    const missingResult = { type: good().type };
    const result = good().result;
    const wrongShape = { ...good(), result: Array.isArray(result) ? [42] : { ...(result as object), id: 42 } };
    for (const bad of [wrongType, missingResult, wrongShape]) {
      expect(successErrors(operationId, bad), JSON.stringify(bad).slice(0, 80)).not.toEqual([]);
      const violations = responseViolations(operationId, status(operationId), "application/json", bad, headersOf(operationId, status(operationId)));
      expect(violations).toEqual([expect.stringMatching(/^body off the 200 schema: /)]);
    }
  });

  it("names each required header that is missing", () => {
    const code = status(operationId);
    const all = headersOf(operationId, code);
    expect(Object.keys(all)).toEqual(expect.arrayContaining(["X-Request-Id", "RateLimit", "RateLimit-Policy"]));
    for (const name of Object.keys(all)) {
      const { [name]: _dropped, ...rest } = all;
      expect(responseViolations(operationId, code, "application/json", good(), rest)).toEqual([`required header missing: ${name}`]);
    }
    // Read case-insensitively, as HTTP does, from fetch's Headers too.
    expect(responseViolations(operationId, code, "application/json", good(), new Headers({ "x-request-id": "r", ratelimit: "1" }))).toEqual([
      "required header missing: RateLimit-Policy",
    ]);
  });

  it("names a wrong status: one the operation does not document, and a documented one with the wrong body or media type", () => {
    expect(responseViolations(operationId, 418, "application/problem+json", problem(418))).toEqual([`status 418 is not documented for ${operationId}`]);
    // A success body under an error status, and an error under the success media type.
    expect(responseViolations(operationId, 401, "application/problem+json", good())).toEqual([expect.stringMatching(/^body off the 401 schema: /)]);
    expect(responseViolations(operationId, 401, "application/json", problem(401))).toEqual(["content-type application/json (expected application/problem+json)"]);
    expect(responseViolations(operationId, 401, "application/problem+json", problem(401))).toEqual([]);
  });
});
