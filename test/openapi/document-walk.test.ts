// The one document helper (server/document/walk.ts): `$ref` resolution and the eight
// methods, used by the server, the conformance suite, the generators and the tests; and the
// server's readers of a document, run over one with an operation on every method and one
// behind a referenced path item, find each (the generator's table: generate-operations.test.ts).
import { describe, expect, it } from "vitest";
import { operationsOf } from "../../server/document/load.js";
import { operationChanges } from "../../server/document/operation-changes.js";
import { deref, httpMethods, operationEntries, resolvePointer } from "../../server/document/walk.js";

const document = {
  paths: {
    "/a/{id}": { $ref: "#/components/pathItems/A" },
    "/b": Object.fromEntries([...httpMethods].reverse().map((method) => [method, { operationId: `${method}B` }])),
  },
  components: {
    pathItems: { A: { get: { operationId: "getA" }, parameters: [] } },
    schemas: { "a/b~c": { type: "string" }, Alias: { $ref: "#/components/schemas/Chain" }, Chain: { $ref: "#/components/schemas/a~1b~0c" } },
    loops: { One: { $ref: "#/components/loops/Two" }, Two: { $ref: "#/components/loops/One" } },
  },
};

describe("deref", () => {
  it("follows a chain of references, unescaping ~1 and ~0", () => {
    expect(deref(document, { $ref: "#/components/schemas/Alias" })).toEqual({ type: "string" });
    expect(resolvePointer(document, "#/components/schemas/a~1b~0c")).toEqual({ type: "string" });
  });

  it("gives any other node back as it is", () => {
    const node = { type: "integer" };
    expect(deref(document, node)).toBe(node);
    expect(deref(document, undefined)).toBeUndefined();
  });

  it.each([
    [{ $ref: "#/components/loops/One" }, /refers to itself/],
    [{ $ref: "#/components/schemas/Missing" }, /dangling/],
    [{ $ref: "other.yaml#/components/schemas/A" }, /only local references/],
  ])("refuses %j", (node, message) => {
    expect(() => deref(document, node)).toThrow(message);
  });
});

describe("operationEntries", () => {
  it("finds an operation on each of the eight methods, in one order, through a referenced path item", () => {
    expect(operationEntries(document).map(({ path, method, operation }) => `${path} ${method} ${operation.operationId}`)).toEqual([
      "/a/{id} get getA",
      ...["get", "put", "post", "delete", "patch", "head", "options", "trace"].map((method) => `/b ${method} ${method}B`),
    ]);
  });
});

describe("the readers of the document", () => {
  // What the walk finds: an operation on each of the eight methods and one behind a $ref'd path item.
  const walked = operationEntries(document).map(({ path, method, operation }) => `${operation.operationId} ${method.toUpperCase()} ${path}`);

  it("the server's (operationsOf: the router, the warm-up, the hints) finds every operation the walk finds", () => {
    expect(operationsOf(document as never).map(({ operationId, method, path }) => `${operationId} ${method.toUpperCase()} ${path}`)).toEqual(walked);
  });

  it("the stubs' contract diff (operationChanges) sees each of them added to an empty document", () => {
    expect(operationChanges({ paths: {} }, document).map(({ operationId, kind, operation }) => `${kind} ${operationId} ${operation}`)).toEqual(
      walked.map((entry) => `added ${entry}`),
    );
  });
});
