// The bundled document as every test suite reads it: the parsed `generated/openapi.json`,
// `$ref` resolution (JSON-pointer unescaping `~1` and `~0`), an operation by its id, its
// examples (path ids, request bodies, success bodies), and one Ajv 2020-12 instance that
// compiles any schema node of the document or any component by its `$ref`.
import { readFileSync } from "node:fs";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { operations, type OperationId } from "../../generated/operations.js";
import { absoluteRefs, deref as derefIn, resolvePointer, schemaBase } from "../../server/document/walk.js";

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** A node of the parsed JSON document (the document is data, not typed code). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Node = any;

export const bundlePath = new URL("../../generated/openapi.json", import.meta.url);

/** The bundled document, `generated/openapi.json`. */
export const doc: Node = JSON.parse(readFileSync(bundlePath, "utf8"));

/** The node a local `$ref` (`#/...`) names, its pointer segments unescaped; throws when dangling (server/document/walk.ts). */
export function resolveRef(ref: string): Node {
  return resolvePointer(doc, ref);
}

/** Follows a local `$ref` to its target, repeatedly; any other node comes back as it is (server/document/walk.ts). */
export function deref<T = Node>(node: Node): T {
  return derefIn<T>(doc, node);
}

/** The Operation Object of the document for an operation id (as the generated table places it). */
export function operation(operationId: OperationId): Node {
  const { method, path } = operations[operationId];
  const found = doc.paths[path]?.[method];
  if (!found) throw new Error(`no operation ${operationId} (${method} ${path}) in the document`);
  return found;
}

/** The operation's parameters, dereferenced. */
export function parametersOf(operationId: OperationId): Node[] {
  return (operation(operationId).parameters ?? []).map((p: Node) => deref(p));
}

/** The operation's path parameters, each set to its documented example. */
export function pathExample(operationId: OperationId): Record<string, string> {
  const path = parametersOf(operationId).filter((p) => p.in === "path");
  return Object.fromEntries(path.map((p) => [p.name, p.example]));
}

/** The `example` of the operation's `id` path parameter (a demo record of application A). */
export function exampleId(operationId: OperationId): string {
  const id = parametersOf(operationId).find((p) => p.in === "path" && p.name === "id");
  if (typeof id?.example !== "string") throw new Error(`${operationId} has no id parameter with an example`);
  return id.example;
}

/** The operation's JSON request body (its `$ref` resolved), or undefined when it takes none. */
function requestMedia(operationId: OperationId): Node {
  const body = operation(operationId).requestBody;
  return body === undefined ? undefined : deref(body).content?.["application/json"];
}

/** The operation's JSON media of its success response, `$ref` resolved. */
function successMedia(operationId: OperationId): Node {
  return deref(operation(operationId).responses[String(operations[operationId].successStatus)])?.content?.["application/json"];
}

const values = (examples: Node): [string, unknown][] => Object.entries<Node>(examples ?? {}).map(([name, example]) => [name, structuredClone(deref(example).value)]);

/** Named examples of the operation's JSON request body, in document order (deep copies). */
export function requestExamples(operationId: OperationId): [string, unknown][] {
  return values(requestMedia(operationId)?.examples);
}

/** Named examples of the operation's success body, in document order (deep copies). */
export function responseExamples(operationId: OperationId): [string, Node][] {
  return values(successMedia(operationId)?.examples);
}

/** The value of the operation's first request-body example (a deep copy). */
export function exampleBody(operationId: OperationId): unknown {
  const [first] = requestExamples(operationId);
  if (!first) throw new Error(`${operationId} has no request-body example`);
  return first[1];
}

/** The value of the operation's first success-response example (a deep copy). */
export function successExample(operationId: OperationId): unknown {
  const [first] = responseExamples(operationId);
  if (!first) throw new Error(`${operationId} has no success example`);
  return first[1];
}

/** The value of a named example of `components/examples` (a deep copy). */
export function namedExample(name: string): unknown {
  const found = doc.components.examples[name];
  if (!found) throw new Error(`no example ${name} in generated/openapi.json`);
  return structuredClone(deref(found).value);
}

/** A fresh 2020-12 validator with the formats (`strict: false` lets OpenAPI's own keywords pass). */
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
  const key = schema !== null && typeof schema === "object" ? schema : JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(absoluteRefs(schema));
    compiled.set(key, validate);
  }
  return validate;
}

/** A validator for a component by its `$ref`, e.g. `#/components/schemas/Problem`. */
export function componentValidator(ref: string): ValidateFunction {
  let validate = components.get(ref);
  if (!validate) {
    resolveRef(ref); // a typo fails here, by name
    validate = validator({ $ref: ref });
    components.set(ref, validate);
  }
  return validate;
}
const components = new Map<string, ValidateFunction>();

/** Ajv's text for a validator's errors. */
export function errorsText(errors: ErrorObject[] | null | undefined, dataVar?: string): string {
  return ajv.errorsText(errors, dataVar === undefined ? {} : { dataVar });
}

/** Whether `value` is valid against the schema node; the errors when not. */
export function check(schema: Node, value: unknown): { valid: boolean; errors: string } {
  const validate = validator(schema);
  const valid = validate(value) as boolean;
  return { valid, errors: valid ? "" : errorsText(validate.errors) };
}

/** The `$ref` of the operation's success schema (a component). */
export function successSchemaRef(operationId: OperationId): string {
  const ref = successMedia(operationId)?.schema?.$ref;
  if (typeof ref !== "string") throw new Error(`${operationId}: the success schema is not a component $ref`);
  return ref;
}

/** The Ajv errors of `body` against the operation's success schema, each as `path message` ([] when valid). */
export function successErrors(operationId: OperationId, body: unknown): string[] {
  const validate = componentValidator(successSchemaRef(operationId));
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** The response headers the document marks `required: true` for an operation's status. */
export function requiredHeaders(operationId: OperationId, status: number): string[] {
  const response = operation(operationId).responses[String(status)];
  return Object.entries<Node>(deref(response)?.headers ?? {})
    .filter(([, header]) => deref(header).required === true)
    .map(([name]) => name);
}

/** Headers as fetch or node:http give them. */
export type AnswerHeaders = Headers | Record<string, string | string[] | undefined>;

const hasHeader = (headers: AnswerHeaders, name: string) =>
  headers instanceof Headers ? headers.has(name) : Object.keys(headers).some((key) => key.toLowerCase() === name.toLowerCase() && headers[key] !== undefined);

/**
 * What is wrong with a response, measured against the document; empty when it conforms:
 * a status the operation does not document, the wrong media type, a body off the status's
 * schema and, when `headers` are given, a header the document marks required but absent or
 * a declared header whose value is off its schema (integers compared as numbers).
 * test/openapi/oracles.test.ts holds the known-bad answers each of these must catch.
 */
export function responseViolations(operationId: OperationId, status: number, contentType: string | null, body: unknown, headers?: AnswerHeaders): string[] {
  const response = operation(operationId).responses[String(status)];
  if (!response) return [`status ${status} is not documented for ${operationId}`];
  const [documentedType, media] = Object.entries<Node>(deref(response).content ?? {})[0] ?? [];
  const problems: string[] = [];
  if (headers) {
    const missing = requiredHeaders(operationId, status).filter((name) => !hasHeader(headers, name));
    if (missing.length > 0) problems.push(`required header${missing.length > 1 ? "s" : ""} missing: ${missing.join(", ")}`);
  }
  const expected = status < 300 ? "application/json" : "application/problem+json";
  const mediaType = (contentType ?? "").split(";")[0]!.trim();
  if (mediaType !== expected) problems.push(`content-type ${contentType} (expected ${expected})`);
  if (documentedType !== expected) problems.push(`the document gives ${documentedType} for ${status}`);
  const validate = validator(media?.schema);
  if (!validate(body)) problems.push(`body off the ${status} schema: ${errorsText(validate.errors)}`);
  if (headers) problems.push(...headerViolations(deref(response).headers ?? {}, headers));
  return problems;
}

const headerValue = (headers: AnswerHeaders, name: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  return Array.isArray(value) ? value.join(", ") : value;
};

/** The declared headers of a response present with a value off their schema (a missing required one is reported by the caller). */
function headerViolations(declared: Record<string, Node>, headers: AnswerHeaders): string[] {
  const problems: string[] = [];
  for (const [name, reference] of Object.entries(declared)) {
    const header = deref(reference);
    const value = headerValue(headers, name);
    if (value === undefined) continue;
    const numeric = header.schema?.type === "integer" || header.schema?.type === "number";
    const validate = validator(header.schema ?? {});
    if (!validate(numeric && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value))
      problems.push(`header ${name}: ${value} is off its schema: ${errorsText(validate.errors)}`);
  }
  return problems;
}
