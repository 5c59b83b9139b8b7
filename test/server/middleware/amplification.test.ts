// A body full of wrong values costs a bounded answer: arrays over their maxItems are refused
// before the validator walks them, and a problem lists at most 10 errors plus the count of
// the rest. Integer parameters follow a strict decimal grammar with the document's bounds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Request, Response } from "express";
import { arrayBounds, arrayBoundsFor, oversizeArrays } from "../../../server/middleware/array-bounds.js";
import { loadDocument, operationsOf, resolveRef, type ApiDocument } from "../../../server/document/load.js";
import type { OperationObject } from "../../../server/document/types.js";
import { integerCheckFor, integerProblem } from "../../../server/middleware/integer-query.js";
import { ApiProblem, maxProblemErrors } from "../../../server/problems.js";
import { appA, recordsOfA } from "../../support/demo.js";
import { problemOf, send, startHarness, type Harness } from "./harness.js";

let server: Harness;
beforeAll(async () => {
  server = await startHarness({ rateLimit: false });
});
afterAll(() => server.close());

const bearer = { authorization: `Bearer ${appA.apiKey}` };
const provider = `/sms/providers/${recordsOfA.smsProviders[0]}`;

describe("a large invalid body", () => {
  it.each([
    ["33,000 empty patterns", { patterns: Array<string>(33_000).fill("") }, "/patterns"],
    ["49,000 numeric countries", { countries: Array<number>(49_000).fill(1) }, "/countries"],
  ])("%s: one error naming the array, an answer under 8 kB", async (_name, body, pointer) => {
    expect(JSON.stringify(body).length).toBeGreaterThan(90_000);
    const response = await send(server, { method: "PUT", path: provider, body }, bearer);
    const text = await response.clone().text();
    expect(response.status).toBe(400);
    expect(text.length).toBeLessThan(8_000);
    const problem = await problemOf(response);
    expect(problem.errors).toEqual([{ in: "body", pointer, message: expect.stringMatching(/^must NOT have more than \d+ items$/) }]);
  });

  it("lists the first 10 errors and counts the rest in errors_omitted", async () => {
    const patterns = Array.from({ length: 100 }, (_, i) => `not a pattern ${i} ${"!".repeat(i)}`);
    const response = await send(server, { method: "PUT", path: provider, body: { patterns } }, bearer);
    expect(response.status).toBe(400);
    const problem = await problemOf(response);
    expect(problem.errors).toHaveLength(maxProblemErrors);
    expect(problem.errors_omitted).toBe(100 - maxProblemErrors);
    expect(problem.detail).toMatch(/and 90 more\.$/);
  });

  it("has no errors_omitted when errors lists them all", async () => {
    const response = await send(server, { method: "PUT", path: provider, body: { patterns: ["!"] } }, bearer);
    const problem = await problemOf(response);
    expect(problem.errors).toHaveLength(1);
    expect(problem).not.toHaveProperty("errors_omitted");
  });
});

describe("array bounds come from the document", () => {
  const document = loadDocument();
  it("every bounded array of every request body is known", () => {
    const update = operationsOf(document).find((o) => o.operationId === "updateSmsProvider")!;
    const body = resolveRef<{ content: Record<string, { schema: unknown }> }>(document, update.operation.requestBody as never);
    const bounds = arrayBounds(document, body.content["application/json"]!.schema);
    expect(bounds.get("/patterns")).toBe(100);
    expect(bounds.get("/countries")).toBe(250);
  });
});

describe("integer parameters", () => {
  it.each(["0x10", "1e1", "%2010", "10.0", "+10", "010", "", "١٠"])("limit=%s is refused", async (limit) => {
    const response = await send(server, { method: "GET", path: `/reports/encryption?limit=${limit}` }, bearer);
    expect(response.status).toBe(400);
    const problem = await problemOf(response);
    expect(problem.errors).toEqual([{ in: "query", name: "limit", message: expect.stringMatching(/^must be a decimal integer .*\(Page size/) }]);
  });

  it("page=9999999999999999999999 is refused by the document's maximum, not answered as page 1e+22", async () => {
    const response = await send(server, { method: "GET", path: "/reports/encryption?page=9999999999999999999999" }, bearer);
    const problem = await problemOf(response);
    expect(problem.errors).toEqual([{ in: "query", name: "page", message: expect.stringMatching(/^must be <= 1000000 /) }]);
  });

  it("decimal values within bounds are served", async () => {
    const response = await send(server, { method: "GET", path: "/reports/encryption?limit=20&page=1000000" }, bearer);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { meta: { current_page: number } }).meta.current_page).toBe(1000000);
  });

  it("compares values past 2^53 exactly", () => {
    expect(integerProblem("9007199254740993", { maximum: 9007199254740992 })).toBe("must be <= 9007199254740992");
    expect(integerProblem("-3", { minimum: 0 })).toBe("must be >= 0");
    expect(integerProblem("-0", {})).toMatch(/^must be a decimal integer/);
    // A bound the document leaves out is no bound.
    expect(integerProblem("5", { minimum: 0 })).toBeUndefined();
  });

  it("start_date (its schema a $ref) by the same grammar, hinted by its schema's description", async () => {
    const response = await send(server, { method: "GET", path: "/reports/encryption?start_date=0x10" }, bearer);
    expect(response.status).toBe(400);
    expect((await problemOf(response)).errors).toEqual([
      {
        in: "query",
        name: "start_date",
        message: "must be a decimal integer (digits only, no sign but -, no spaces, exponent or hex) (Unix time in seconds (0 to 9999999999, i.e. up to the year 2286))",
      },
    ]);
  });
});

describe("integerCheckFor on a document with integer path parameters", () => {
  // The bundled document's path ids are strings; a document given to createContractApp may
  // have integer ones, read from the routed path by the template's names.
  const document = {
    components: {
      schemas: { Count: { type: "integer", minimum: 1, description: "How many to take. At least one." } },
      parameters: { Item: { name: "item", in: "path", required: true, description: "Item number, up to 50.", schema: { type: "integer", maximum: 50 } } },
    },
  } as unknown as ApiDocument;
  const operation: OperationObject = {
    parameters: [
      { name: "shelf", in: "path", required: true, schema: { type: "string" } },
      { $ref: "#/components/parameters/Item" },
      { name: "count", in: "query", schema: { $ref: "#/components/schemas/Count" } },
      // Not this check's: a header (OpenAPI names a parameter by name and location), and a
      // parameter described by `content` instead of `schema`.
      { name: "item", in: "header", schema: { type: "integer", maximum: 5 } },
      { name: "filter", in: "query", content: { "application/json": { schema: { type: "object" } } } },
    ],
  };
  const errorsOf = (check: ReturnType<typeof integerCheckFor>, url: string) => {
    let passed: unknown = "not called";
    const query = Object.fromEntries(new URL(url, "http://localhost").searchParams);
    check!({ url, query } as unknown as Request, {} as Response, (error?: unknown) => void (passed = error));
    return passed instanceof ApiProblem ? passed.errors : passed;
  };
  const notDecimal = "must be a decimal integer (digits only, no sign but -, no spaces, exponent or hex)";

  it("reads each path parameter by its name", () => {
    const check = integerCheckFor(document, "/v1", "/shelves/{shelf}/items/{item}", operation);
    expect(errorsOf(check, "/v1/shelves/7/items/0x10")).toEqual([{ in: "path", name: "item", message: `${notDecimal} (Item number, up to 50)` }]);
    expect(errorsOf(check, "/v1/shelves/0x10/items/51?count=1")).toEqual([{ in: "path", name: "item", message: "must be <= 50 (Item number, up to 50)" }]);
    expect(errorsOf(check, "/v1/shelves/7/items/50")).toBeUndefined();
  });

  it("reads the path of an operation whose only integer is in the path", () => {
    const check = integerCheckFor(document, "/v1", "/items/{item}", { parameters: [{ $ref: "#/components/parameters/Item" }] });
    expect(errorsOf(check, "/v1/items/1e1")).toEqual([{ in: "path", name: "item", message: `${notDecimal} (Item number, up to 50)` }]);
  });

  it("checks a query parameter whose schema is a $ref, with the schema's description", () => {
    const check = integerCheckFor(document, "/v1", "/shelves/{shelf}/items/{item}", operation);
    expect(errorsOf(check, "/v1/shelves/7/items/3?count=0")).toEqual([{ in: "query", name: "count", message: "must be >= 1 (How many to take)" }]);
    expect(errorsOf(check, "/v1/shelves/7/items/3?count=2")).toBeUndefined();
  });
});

describe("oversizeArrays", () => {
  it("visits only the places the bounds name, so deep nesting costs nothing", () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(oversizeArrays({ other: deep, patterns: [deep] }, new Map([["/patterns", 100]]))).toEqual([]);
    let deepObject: unknown = {};
    for (let i = 0; i < 100_000; i++) deepObject = { other: deepObject };
    expect(oversizeArrays(deepObject, new Map([["/patterns", 100]]))).toEqual([]);
    expect(oversizeArrays({ a: [{ b: [1, 2, 3] }] }, new Map([["/a/*/b", 2]]))).toEqual([{ in: "body", pointer: "/a/0/b", message: "must NOT have more than 2 items" }]);
  });
});

describe("arrayBounds on schemas the bundled document does not have", () => {
  // The bundled document has no recursive schema, no array among alternatives and no
  // property name with `/` or `~`; a document given to createContractApp may.
  const document = {
    components: {
      schemas: {
        Tree: { type: "object", properties: { children: { type: "array", maxItems: 3, items: { $ref: "#/components/schemas/Tree" } } } },
        Tags: { type: "array", maxItems: 5, items: { type: "string" } },
      },
    },
  } as unknown as ApiDocument;
  const schema = {
    type: "object",
    properties: {
      tree: { $ref: "#/components/schemas/Tree" },
      tags: { $ref: "#/components/schemas/Tags" },
      matrix: { type: "array", maxItems: 4, items: { type: "array", maxItems: 6 } },
      "a/b": { type: "array", maxItems: 1 },
      "c~d": { type: "array", maxItems: 2 },
      all: { allOf: [{ type: "array", maxItems: 8 }] },
      any: { anyOf: [{ type: "string" }, { type: "array", maxItems: 10 }] },
      either: {
        oneOf: [
          { type: "array", maxItems: 7 },
          { type: "array", maxItems: 9 },
        ],
      },
      // OpenAPI 3.1 schemas may be booleans.
      anything: true,
      nothing: false,
      name: { type: "string" },
    },
  };

  it("keys every bounded array by its JSON pointer, and only those", () => {
    expect(Object.fromEntries(arrayBounds(document, schema))).toEqual({
      "/tree/children": 3,
      "/tags": 5,
      "/matrix": 4,
      "/matrix/*": 6,
      "/a~1b": 1,
      "/c~0d": 2,
      "/all": 8,
      "/any": 10,
      // Alternatives bounding one place differently: the largest.
      "/either": 9,
    });
  });

  it("oversizeArrays finds arrays under escaped names, and skips a null where the bounds go deeper", () => {
    const bounds = arrayBounds(document, schema);
    expect(oversizeArrays({ "a/b": [1, 2], "c~d": [1, 2, 3], tree: null, matrix: [null, [1, 2, 3, 4, 5, 6, 7]] }, bounds)).toEqual([
      { in: "body", pointer: "/a~1b", message: "must NOT have more than 1 items" },
      { in: "body", pointer: "/c~0d", message: "must NOT have more than 2 items" },
      { in: "body", pointer: "/matrix/1", message: "must NOT have more than 6 items" },
    ]);
  });

  it("arrayBoundsFor: no check for an operation whose body is not JSON", () => {
    expect(arrayBoundsFor(document, { requestBody: { content: { "text/plain": { schema: { type: "string" } } } } })).toBeUndefined();
  });
});
