// What the checks read from the bundled document (`generated/openapi.json`, shipped in the
// package): each operation's examples (ids, bodies) and a 2020-12 validator for its response
// schemas and for Problem. The checks never restate a schema; they ask the document.
import { existsSync, readFileSync } from "node:fs";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { operations, type OperationId } from "../generated/operations.js";
import { absoluteRefs, deref as derefIn, resolvePointer, schemaBase } from "../server/document/walk.js";

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** A node of the parsed JSON document (data, not typed code). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = any;

// `conformance/` in the repository, `dist/conformance/` in the package: the document is the
// nearest `generated/openapi.json` above this module.
function bundleUrl(): URL {
  for (const up of ["../", "../../"]) {
    const url = new URL(`${up}generated/openapi.json`, import.meta.url);
    if (existsSync(url)) return url;
  }
  throw new Error("conformance: generated/openapi.json not found beside the package");
}

/** The bundled document. */
export const doc: Node = JSON.parse(readFileSync(bundleUrl(), "utf8"));

/** `node` with its `$ref`s followed in the bundled document. */
const deref = (node: Node): Node => derefIn(doc, node);

function operation(operationId: OperationId): Node {
  const { method, path } = operations[operationId];
  return doc.paths[path][method];
}

/** The `example` of the operation's `id` path parameter. */
export function exampleId(operationId: OperationId): string {
  const id = (operation(operationId).parameters ?? []).map(deref).find((p: Node) => p.in === "path" && p.name === "id");
  if (typeof id?.example !== "string") throw new Error(`${operationId} has no id parameter with an example`);
  return id.example;
}

/** The value of the operation's first request-body example (a deep copy). */
export function exampleBody(operationId: OperationId): unknown {
  const media = deref(operation(operationId).requestBody)?.content?.["application/json"];
  const first = Object.values<Node>(media?.examples ?? {})[0];
  if (!first) throw new Error(`${operationId} has no request-body example`);
  return structuredClone(deref(first).value);
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: schemaBase, components: absoluteRefs(doc.components) });
const compiled = new Map<string, ValidateFunction>();

function componentValidator(ref: string): ValidateFunction {
  let validate = compiled.get(ref);
  if (!validate) {
    resolvePointer(doc, ref);
    validate = ajv.compile({ $ref: `${schemaBase}${ref}` });
    compiled.set(ref, validate);
  }
  return validate;
}

function errorsOf(ref: string, value: unknown): string | undefined {
  const validate = componentValidator(ref);
  return validate(value) ? undefined : ajv.errorsText(validate.errors as ErrorObject[], { dataVar: "body" });
}

/** Why `body` does not match the operation's success response schema, or undefined when it does. */
export function successSchemaErrors(operationId: OperationId, body: unknown): string | undefined {
  const response = deref(operation(operationId).responses[String(operations[operationId].successStatus)]);
  const ref = response?.content?.["application/json"]?.schema?.$ref;
  if (typeof ref !== "string") throw new Error(`${operationId}: the success schema is not a component $ref`);
  return errorsOf(ref, body);
}

/** Why `body` is not a Problem (RFC 9457 + `code`), or undefined when it is. */
export function problemSchemaErrors(body: unknown): string | undefined {
  return errorsOf("#/components/schemas/Problem", body);
}

/**
 * Why an error answer's `body` does not match the schema the operation declares for
 * `status` (a 501's is NotImplementedProblem, whose `code` Problem's list does not hold), or
 * Problem for a status it does not declare; undefined when it does.
 */
export function errorSchemaErrors(operationId: OperationId, status: number, body: unknown): string | undefined {
  const response = deref(operation(operationId).responses[String(status)]);
  const declared = Object.values<Node>(response?.content ?? {}).find((media) => typeof media?.schema?.$ref === "string");
  return errorsOf(declared?.schema.$ref ?? "#/components/schemas/Problem", body);
}

/** One query parameter of an operation, its schema followed. */
export interface QueryParameter {
  name: string;
  description?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  schema: Record<string, any>;
}

/** The operation object of a list operation (its description says how it is ordered). */
export function listOperationOf(operationId: OperationId): { description?: string } {
  return operation(operationId);
}

/** The query parameters of an operation, as the document declares them. */
export function queryParameters(operationId: OperationId): QueryParameter[] {
  return (operation(operationId).parameters ?? [])
    .map(deref)
    .filter((parameter: Node) => parameter.in === "query")
    .map((parameter: Node) => ({ name: parameter.name, description: parameter.description, schema: deref(parameter.schema) }));
}

const parameterValidators = new WeakMap<object, ValidateFunction>();

/** Whether a value (as sent in a query string) is valid against a parameter's schema. */
export function schemaAccepts(schema: Record<string, unknown>, value: string): boolean {
  let validate = parameterValidators.get(schema);
  if (!validate) {
    validate = ajv.compile(absoluteRefs(schema));
    parameterValidators.set(schema, validate);
  }
  return validate(value);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function propertiesOf(schema: Node): Record<string, any> {
  const node = deref(schema);
  if (!node || typeof node !== "object") return {};
  const own = { ...(node.properties ?? {}) };
  for (const part of [...(node.allOf ?? []), ...(node.oneOf ?? []), ...(node.anyOf ?? [])]) Object.assign(own, propertiesOf(part));
  return own;
}

/** Whether the records of a list operation's `result` declare a (dotted) field, e.g. `region.code`. */
export function recordDeclares(operationId: OperationId, field: string): boolean {
  const response = deref(operation(operationId).responses[String(operations[operationId].successStatus)]);
  let node: Node = deref(propertiesOf(response?.content?.["application/json"]?.schema).result)?.items;
  for (const key of field.split(".")) {
    node = propertiesOf(node)[key];
    if (node === undefined) return false;
  }
  return true;
}
