// The client's default body limit is sized from the document: the largest answer any
// operation can give, computed from generated/openapi.json's bounds (maxLength, maxItems,
// integer ranges, closed objects) as JSON.stringify would write it at worst (every string
// character a 6-byte `\u` escape). The default must hold that answer and be no more than
// twice it, so a change of the document's bounds that outgrows it (or shrinks far below it)
// fails here, naming the bound.
import { describe, expect, it } from "vitest";
import { defaultMaxResponseBytes } from "../../client/index.js";
import { deref, doc, type Node } from "../support/document.js";

/** The most bytes a JSON value valid against `schema` can take; throws where the document sets no bound. */
function worstCaseBytes(schema: Node, where: string): number {
  const node = deref<Node>(schema);
  if (node.const !== undefined) return Buffer.byteLength(JSON.stringify(node.const));
  if (node.enum) return Math.max(...(node.enum as unknown[]).map((value) => Buffer.byteLength(JSON.stringify(value))));
  for (const keyword of ["oneOf", "anyOf"]) {
    if (node[keyword]) return Math.max(...(node[keyword] as Node[]).map((branch, index) => worstCaseBytes(branch, `${where}/${keyword}/${index}`)));
  }
  if (node.allOf) throw new Error(`${where}: allOf is not bounded here; extend worstCaseBytes`);
  const types: string[] = Array.isArray(node.type) ? node.type : [node.type];
  return Math.max(
    ...types.map((type) => {
      switch (type) {
        case "null":
          return 4;
        case "boolean":
          return 5;
        case "integer":
          if (node.minimum === undefined || node.maximum === undefined) throw new Error(`${where}: an integer without minimum and maximum`);
          return Math.max(String(node.minimum).length, String(node.maximum).length);
        case "string":
          if (node.maxLength === undefined) throw new Error(`${where}: a string without maxLength`);
          return 2 + 6 * node.maxLength;
        case "array":
          if (node.maxItems === undefined) throw new Error(`${where}: an array without maxItems`);
          return 2 + node.maxItems * (worstCaseBytes(node.items, `${where}/items`) + 1);
        case "object":
          if (node.additionalProperties !== false && node.unevaluatedProperties !== false) throw new Error(`${where}: an object open to more properties`);
          return (
            2 +
            Object.entries<Node>(node.properties ?? {}).reduce(
              (sum, [name, property]) => sum + JSON.stringify(name).length + 2 + worstCaseBytes(property, `${where}/${name}`),
              0,
            )
          );
        default:
          throw new Error(`${where}: type ${String(type)} is not bounded here`);
      }
    }),
  );
}

/** Every JSON answer of the document: where, and its worst case in bytes. */
function answers(): [string, number][] {
  return Object.entries<Node>(doc.paths).flatMap(([path, item]) =>
    Object.entries<Node>(item)
      .filter(([, operation]) => operation?.responses)
      .flatMap(([method, operation]) =>
        Object.entries<Node>(operation.responses).flatMap(([status, response]) =>
          Object.entries<Node>(deref<Node>(response).content ?? {}).map(
            ([type, media]) => [`${method.toUpperCase()} ${path} ${status} ${type}`, worstCaseBytes(media.schema, `${method} ${path} ${status}`)] as [string, number],
          ),
        ),
      ),
  );
}

describe("the default body limit", () => {
  it("holds the document's largest answer, and is at most twice it", () => {
    const all = answers();
    const [where, largest] = all.reduce((max, answer) => (answer[1] > max[1] ? answer : max));
    expect(all.length).toBeGreaterThan(50);
    expect(where).toBe("GET /reports/encryption 200 application/json");
    expect(largest).toBe(2_107_072);
    expect(defaultMaxResponseBytes).toBeGreaterThanOrEqual(largest);
    expect(defaultMaxResponseBytes).toBeLessThanOrEqual(2 * largest);
  });

  it("refuses to size an answer the document leaves unbounded", () => {
    expect(() => worstCaseBytes({ type: "string" }, "x")).toThrow("x: a string without maxLength");
    expect(() => worstCaseBytes({ type: "array", items: { type: "boolean" } }, "x")).toThrow("x: an array without maxItems");
    expect(() => worstCaseBytes({ type: "object", properties: {} }, "x")).toThrow("x: an object open to more properties");
    expect(worstCaseBytes({ type: "array", maxItems: 2, items: { type: "string", maxLength: 1 } }, "x")).toBe(2 + 2 * (2 + 6 + 1));
  });
});
