// The bundled document as the openapi tests read it, plus lookups by method and path and
// through composed schemas.
// Tests state the source's facts themselves and look them up here, so a change to the
// document that drops a fact fails a test instead of changing what the test expects.
import bundled from "../../generated/openapi.json" with { type: "json" };
import { httpMethods } from "../../server/document/walk.js";
import { deref, type Node } from "../support/document.js";

/**
 * The bundled document, imported rather than read from disk (test/support/document.ts): these
 * suites read its text, prose included, so vitest's `--changed` and watch mode rerun them when
 * it changes (test/vitest.config.ts reruns the others only when a schema or example changes).
 */
export const doc: Node = bundled;

// `$ref` resolution and the validator are test/support's, shared by every suite.
export { bundlePath, check, createAjv, deref, validator, type Node } from "../support/document.js";

// The eight methods of a path item: the one list the server, the generators and the conformance suite use.
export { httpMethods } from "../../server/document/walk.js";

export interface Operation {
  method: string;
  path: string;
  op: Node;
}

/** Every operation of the document, in document order. */
export function operations(): Operation[] {
  return Object.entries<Node>(doc.paths).flatMap(([path, item]) =>
    httpMethods.filter((m) => item[m]).map((method) => ({ method: method.toUpperCase(), path, op: item[method] })),
  );
}

/** The operation with this method and path; throws when the document lacks it. */
export function operation(method: string, path: string): Node {
  const found = operations().find((o) => o.method === method && o.path === path);
  if (!found) throw new Error(`no operation ${method} ${path} in the document`);
  return found.op;
}

/** The operation's parameters, dereferenced. */
export function parameters(op: Node): Node[] {
  return (op.parameters ?? []).map(deref);
}

/** The parameter `name` of the operation; throws when missing. */
export function parameter(op: Node, name: string): Node {
  const found = parameters(op).find((p) => p.name === name);
  if (!found) throw new Error(`no parameter ${name} on ${op.operationId}`);
  return found;
}

/** The schema of the operation's JSON request body. */
export function bodySchema(op: Node): Node {
  return deref(op.requestBody).content["application/json"].schema;
}

/** The schema of the operation's 200 JSON response. */
export function successSchema(op: Node): Node {
  return deref(op.responses["200"]).content["application/json"].schema;
}

/**
 * Finds property `name` of an object schema, looking through `$ref`, `allOf`, `oneOf` and
 * `anyOf` (the document composes request variants that way). Returns every declaration.
 */
export function propertyDeclarations(schema: Node, name: string, seen = new Set<Node>()): Node[] {
  const s = deref(schema);
  if (!s || typeof s !== "object" || seen.has(s)) return [];
  seen.add(s);
  const own = s.properties?.[name] !== undefined ? [s.properties[name]] : [];
  const nested = ["allOf", "oneOf", "anyOf"].flatMap((k) => (s[k] ?? []).flatMap((sub: Node) => propertyDeclarations(sub, name, seen)));
  return [...own, ...nested];
}

/** The single (first) declaration of property `name`, dereferenced; throws when absent. */
export function property(schema: Node, name: string): Node {
  const [first] = propertyDeclarations(schema, name);
  if (first === undefined) throw new Error(`no property ${name}`);
  return deref(first);
}

/** Collects a schema's JSON types and formats through `$ref`, `allOf`, `anyOf`, `oneOf`, `const`. */
export function typeInfo(schema: Node): { types: Set<string>; formats: Set<string> } {
  const types = new Set<string>();
  const formats = new Set<string>();
  const visit = (node: Node, depth: number): void => {
    const s = deref(node);
    if (!s || typeof s !== "object" || depth > 10) return;
    for (const t of [s.type].flat()) if (typeof t === "string") types.add(t);
    if (typeof s.format === "string") formats.add(s.format);
    if ("const" in s) types.add(s.const === null ? "null" : typeof s.const);
    for (const k of ["allOf", "anyOf", "oneOf"]) for (const sub of s[k] ?? []) visit(sub, depth + 1);
  };
  visit(schema, 0);
  return { types, formats };
}

/** A deep copy of a JSON value, to mutate in a test. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}
