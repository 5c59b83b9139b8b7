// The one document helper (server/document/walk.ts): `$ref` resolution and the eight
// methods, used by the server, the conformance suite, the generators and the tests; no other
// module writes its own method list or pointer walk.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { deref, httpMethods, operationEntries, resolvePointer } from "../../server/document/walk.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

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

describe("one helper", () => {
  const sources = ["server", "conformance", "scripts", "mock", "test/support", "test/openapi"].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .map((file) => join(dir, file)),
  );

  it("no other module lists the HTTP methods or walks a JSON pointer itself", () => {
    expect(sources.length).toBeGreaterThan(100);
    const own = sources.filter((file) => {
      const text = readFileSync(join(root, file), "utf8");
      return /\["get", "put"|\.slice\(2\)\s*\.split\("\/"\)/.test(text);
    });
    // scripts/diff/ classifies changes by its own rules and is replaced by `redocly diff`; this file names the pattern it looks for.
    expect(own.filter((file) => !file.startsWith("scripts/diff/") && file !== "test/openapi/document-walk.test.ts")).toEqual(["server/document/walk.ts"]);
  });
});
