// The mapping from express-openapi-validator's error paths to the problem's errors[]: each
// path shape eov produces, one item per offending value, and the document's description
// appended to parameter messages.
import { describe, expect, it } from "vitest";
import { loadDocument } from "../../../server/document/load.js";
import { describeErrors, parameterHints, toErrorItems } from "../../../server/http/validation-errors.js";

const hints = parameterHints(loadDocument());
const reports = hints.get("findEncryptionReports");
const requestPath = "/v1/reports/encryption";

describe("toErrorItems", () => {
  it.each([
    ["/query/limit", { in: "query", name: "limit" }],
    ["/params/id", { in: "path", name: "id" }],
    ["/headers/x-trace", { in: "header", name: "x-trace" }],
    ["/body/auth/api_key", { in: "body", pointer: "/auth/api_key" }],
    ["/body", { in: "body", pointer: "" }],
    ["/title", { in: "body", pointer: "/title" }],
    ["/body/a~1b", { in: "body", pointer: "/a~1b" }],
  ])("locates %s", (path, expected) => {
    expect(toErrorItems([{ path, message: "must be string" }], requestPath)).toEqual([{ ...expected, message: "must be string" }]);
  });

  it("appends what the document says a parameter is, so a millisecond date is told seconds", () => {
    const [item] = toErrorItems([{ path: "/query/start_date", message: "must be <= 9999999999", errorCode: "maximum.openapi.validation" }], requestPath, reports);
    expect(item).toEqual({ in: "query", name: "start_date", message: expect.stringMatching(/^must be <= 9999999999 \(Unix time in seconds/) });
  });

  it("does not append a description to an unknown parameter", () => {
    const [item] = toErrorItems([{ path: "/query/start", message: "Unknown query parameter 'start'" }], requestPath, reports);
    expect(item!.message).toBe("Unknown query parameter 'start'");
  });

  it("folds the branches of an anyOf into one item per value", () => {
    const items = toErrorItems(
      [
        { path: "/query/ip", message: 'must match format "ipv4"', errorCode: "format.openapi.validation" },
        { path: "/query/ip", message: 'must match format "ipv6"', errorCode: "format.openapi.validation" },
        { path: "/query/ip", message: "must match a schema in anyOf", errorCode: "anyOf.openapi.validation" },
        { path: "/query/limit", message: "must be <= 100", errorCode: "maximum.openapi.validation" },
      ],
      requestPath,
      reports,
    );
    expect(items).toEqual([
      { in: "query", name: "ip", message: 'must match format "ipv4" or must match format "ipv6" (An IPv4 or IPv6 address)' },
      { in: "query", name: "limit", message: "must be <= 100 (Page size, 10 to 100)" },
    ]);
  });

  it("reads eov's discriminator message (reported against the request path) as a body pointer", () => {
    const items = toErrorItems([{ path: "/v1/custom/emails", message: "'type' must be equal to one of the allowed values: SENDGRID, SES." }], "/v1/custom/emails");
    expect(items).toEqual([{ in: "body", pointer: "/type", message: "must be equal to one of the allowed values: SENDGRID, SES" }]);
  });

  it("puts an anyOf over the whole body (no notification target) in the body, not the path", () => {
    const items = toErrorItems(
      [
        { path: "/receivers", message: "must have required property 'receivers'", errorCode: "required.openapi.validation" },
        { path: "/groups", message: "must have required property 'groups'", errorCode: "required.openapi.validation" },
        { path: "", message: "must match a schema in anyOf", errorCode: "anyOf.openapi.validation" },
      ],
      "/v1/notifications",
    );
    expect(items.map((item) => item.in)).toEqual(["body", "body", "body"]);
    expect(items.map((item) => item.pointer)).toEqual(["/receivers", "/groups", ""]);
  });

  it("reads an undecodable path as a path problem", () => {
    expect(toErrorItems([{ path: "/v1/widgets/%E0%A4%A", message: "malformed uri'" }], "/v1/widgets/%E0%A4%A")).toEqual([
      { in: "path", message: "is not valid percent-encoding" },
    ]);
  });

  it("says a missing body plainly", () => {
    expect(toErrorItems([{ path: "/body", message: "must have required property 'body'" }], requestPath)).toEqual([
      { in: "body", pointer: "", message: "a JSON body is required" },
    ]);
  });
});

describe("describeErrors", () => {
  it("names every value in one sentence", () => {
    expect(
      describeErrors([
        { in: "query", name: "limit", message: "must be <= 100" },
        { in: "body", pointer: "", message: "must be object" },
      ]),
    ).toBe("2 values of the request are invalid. query limit: must be <= 100; body (the whole body): must be object.");
  });
});
