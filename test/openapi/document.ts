// The bundled document as the tests read it, plus a 2020-12 validator over its schemas.
// Tests state the source's facts themselves and look them up here, so a change to the
// document that drops a fact fails a test instead of changing what the test expects.
import { readFileSync } from "node:fs";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** A node of the parsed JSON document (the document is data, not typed code). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Node = any;

export const bundlePath = new URL("../../generated/openapi.json", import.meta.url);

/** The bundled document, `generated/openapi.json`. */
export const doc: Node = JSON.parse(readFileSync(bundlePath, "utf8"));

export const httpMethods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

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

/** Follows a local `$ref` (`#/components/...`) to its target, repeatedly. */
export function deref(node: Node): Node {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === "string"; hops++) {
    if (hops > 20 || !current.$ref.startsWith("#/")) throw new Error(`cannot follow ${current.$ref}`);
    current = current.$ref
      .slice(2)
      .split("/")
      .map((part: string) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((at: Node, key: string) => at?.[key], doc);
    if (current === undefined) throw new Error(`dangling $ref ${node.$ref}`);
  }
  return current;
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
  const nested = ["allOf", "oneOf", "anyOf"].flatMap((k) =>
    (s[k] ?? []).flatMap((sub: Node) => propertyDeclarations(sub, name, seen)),
  );
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

const schemaBase = "urn:authsvc:openapi";

// Every `#/components/...` reference made absolute, so any schema node compiles on its own.
function absoluteRefs(node: Node): Node {
  if (Array.isArray(node)) return node.map(absoluteRefs);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `${schemaBase}${v}` : absoluteRefs(v),
    ]),
  );
}

/** A fresh strict-enough 2020-12 validator (`strict: false` lets OpenAPI's own keywords pass). */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

const ajv = createAjv();
ajv.addSchema({ $id: schemaBase, components: absoluteRefs(doc.components) });
const compiled = new Map<Node, ValidateFunction>();

/** A validator for a schema node of the document (its `$ref`s resolve into the document). */
export function validator(schema: Node): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(absoluteRefs(schema));
    compiled.set(schema, validate);
  }
  return validate;
}

/** Whether `value` is valid against the schema node; the errors when not. */
export function check(schema: Node, value: unknown): { valid: boolean; errors: string } {
  const validate = validator(schema);
  const valid = validate(value) as boolean;
  return { valid, errors: valid ? "" : ajv.errorsText(validate.errors) };
}

/** A deep copy of a JSON value, to mutate in a test. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}
