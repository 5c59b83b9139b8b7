// The mapping from express-openapi-validator's error paths to the problem's errors[]: each
// path shape eov produces, one item per offending value, and the document's description
// appended to parameter messages.
import { describe, expect, it } from "vitest";
import { type ApiDocument, loadDocument } from "../../../server/document/load.js";
import { describeErrors, firstSentence, parameterHints, toErrorItems } from "../../../server/middleware/validation-errors.js";
import { componentValidator } from "../../support/document.js";

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

  it("does not append a description to an unknown parameter named like a known one in another case", () => {
    // Query names are case-sensitive: `Limit` is unknown, though the hints (keyed in lower case) know `limit`.
    const [item] = toErrorItems([{ path: "/query/Limit", message: "Unknown query parameter 'Limit'" }], requestPath, reports);
    expect(item!.message).toBe("Unknown query parameter 'Limit'");
  });

  it("joins the other errors of one value with '; ', each once", () => {
    const items = toErrorItems(
      [
        { path: "/query/limit", message: "must be integer", errorCode: "type.openapi.validation" },
        { path: "/query/limit", message: "must be >= 10", errorCode: "minimum.openapi.validation" },
        { path: "/query/limit", message: "must be integer", errorCode: "type.openapi.validation" },
      ],
      requestPath,
    );
    expect(items).toEqual([{ in: "query", name: "limit", message: "must be integer; must be >= 10" }]);
  });

  it("keeps a bare body pointer whose words are locations (`/template/body`, `/bodyHtml`) in the body", () => {
    const items = toErrorItems(
      [
        { path: "/template/body", message: "must be string" },
        { path: "/bodyHtml", message: "must be string" },
      ],
      requestPath,
    );
    expect(items).toEqual([
      { in: "body", pointer: "/template/body", message: "must be string" },
      { in: "body", pointer: "/bodyHtml", message: "must be string" },
    ]);
  });

  it("keeps an anyOf under a bare pointer at that pointer (only an empty path means the whole body)", () => {
    const items = toErrorItems([{ path: "/target", message: "must match a schema in anyOf", errorCode: "anyOf.openapi.validation" }], requestPath);
    expect(items).toEqual([{ in: "body", pointer: "/target", message: "must match a schema in anyOf" }]);
  });

  it.each([
    ["an empty path", ""],
    ["no path", undefined],
  ])("reads an error with %s (not an anyOf) as the request path's", (_label, path) => {
    expect(toErrorItems([{ path, message: "malformed uri'" }], requestPath)).toEqual([{ in: "path", message: "is not valid percent-encoding" }]);
  });

  it("decodes a parameter name's JSON pointer escapes (~1 is /, ~0 is ~)", () => {
    expect(toErrorItems([{ path: "/query/a~1b~0c", message: "Unknown query parameter 'a/b~c'" }], requestPath)).toEqual([
      { in: "query", name: "a/b~c", message: "Unknown query parameter 'a/b~c'" },
    ]);
  });

  it("drops only a final period from eov's message", () => {
    expect(toErrorItems([{ path: "/query/ratio", message: "must be >= 0.5." }], requestPath)[0]!.message).toBe("must be >= 0.5");
  });

  it("says what a `false` schema (a value another one rules out) means", () => {
    expect(toErrorItems([{ path: "/query/ip", message: "boolean schema is false" }], requestPath)[0]!.message).toBe(
      "is not allowed here (with the other values of this request)",
    );
  });

  it("keeps every location on the Problem schema, a cookie's too (the schema has no cookie location)", () => {
    const problemError = componentValidator("#/components/schemas/ProblemError");
    for (const item of toErrorItems([{ path: "/cookies/session", message: "must be string" }], requestPath)) {
      expect(problemError(item), JSON.stringify(item)).toBe(true);
    }
  });

  it("says a missing body plainly", () => {
    expect(toErrorItems([{ path: "/body", message: "must have required property 'body'" }], requestPath)).toEqual([
      { in: "body", pointer: "", message: "a JSON body is required" },
    ]);
  });
});

describe("firstSentence", () => {
  it.each([
    ["**Page** size, 10 to 100.\n", "Page size, 10 to 100"],
    ["An `IPv4` or __IPv6__ address.", "An IPv4 or IPv6 address"],
    ["Unix time in seconds. Milliseconds are refused.", "Unix time in seconds"],
    ["Unix time in seconds.  Milliseconds are refused.", "Unix time in seconds"],
    ["Seconds, e.g. 1767225600. Not milliseconds.", "Seconds, e.g. 1767225600"],
    ["Version 1.2 of the format.", "Version 1.2 of the format"],
  ])("%j → %j", (description, sentence) => {
    expect(firstSentence(description)).toBe(sentence);
  });
});

describe("parameterHints", () => {
  // Each way a parameter is described: through a $ref and its schema's $ref, the schema's
  // description before the parameter's, the parameter's when there is no schema, none at all.
  const document = {
    openapi: "3.1.0",
    info: { title: "hints", version: "1" },
    paths: {
      "/things/{id}": {
        get: {
          operationId: "readThing",
          parameters: [
            { $ref: "#/components/parameters/ThingId" },
            { name: "Limit", in: "query", description: "Not this one.", schema: { type: "integer", description: "Page size. Defaults to 20." } },
            { name: "filter", in: "query", description: "A JSON filter.", content: { "application/json": { schema: { type: "object" } } } },
            { name: "X-Trace", in: "header", schema: { type: "string" } },
          ],
        },
      },
      "/ping": { get: { operationId: "ping" } },
    },
    components: {
      parameters: { ThingId: { name: "id", in: "path", required: true, schema: { $ref: "#/components/schemas/ThingId" } } },
      schemas: { ThingId: { type: "string", description: "A thing's id." } },
    },
  } as unknown as ApiDocument;

  it("reads each operation's parameter descriptions by `in:name`, the name in lower case", () => {
    expect(parameterHints(document)).toEqual(
      new Map([
        [
          "readThing",
          new Map([
            ["path:id", "A thing's id"],
            ["query:limit", "Page size"],
            ["query:filter", "A JSON filter"],
          ]),
        ],
        ["ping", new Map()],
      ]),
    );
  });
});

describe("describeErrors", () => {
  it("says one value in the singular, naming only its location when it has no name", () => {
    expect(describeErrors([{ in: "path", message: "is not valid percent-encoding" }])).toBe("One value of the request is invalid. path: is not valid percent-encoding.");
  });

  it("names every value in one sentence", () => {
    expect(
      describeErrors([
        { in: "query", name: "limit", message: "must be <= 100" },
        { in: "body", pointer: "", message: "must be object" },
      ]),
    ).toBe("2 values of the request are invalid. query limit: must be <= 100; body (the whole body): must be object.");
  });
});
