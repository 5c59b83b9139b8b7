// What the checks read from the bundled document: each operation's valid request (the id
// and body of its examples, which are the demo records), and a 2020-12 validator for its
// response schemas. The checks never restate a schema; they ask the document.
import { readFileSync } from "node:fs";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { operations, type OperationId } from "../../generated/operations.js";

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** A node of the parsed document (the document is data here, not typed code). */
type Node = any;

const document: Node = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));

/** Follows local `$ref`s (`#/components/...`) to the node they name. */
function deref(node: Node): Node {
  let current = node;
  while (current && typeof current.$ref === "string") {
    current = current.$ref
      .slice(2)
      .split("/")
      .map((part: string) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((at: Node, key: string) => at?.[key], document);
  }
  return current;
}

function operationObject(operationId: OperationId): Node {
  const { method, path } = operations[operationId];
  return document.paths[path][method];
}

/** The `example` of the operation's `id` path parameter (a demo record of application A). */
export function exampleId(operationId: OperationId): string {
  const id = (operationObject(operationId).parameters ?? []).map(deref).find((p: Node) => p.in === "path" && p.name === "id");
  if (typeof id?.example !== "string") throw new Error(`${operationId} has no id parameter with an example`);
  return id.example;
}

/** The value of the operation's first request-body example. */
export function exampleBody(operationId: OperationId): unknown {
  const media = deref(operationObject(operationId).requestBody)?.content?.["application/json"];
  const first = Object.values<Node>(media?.examples ?? {})[0];
  if (!first) throw new Error(`${operationId} has no request-body example`);
  return structuredClone(deref(first).value);
}

/** The value of the operation's first success-response example. */
export function successExample(operationId: OperationId): unknown {
  const response = deref(operationObject(operationId).responses[String(operations[operationId].successStatus)]);
  const first = Object.values<Node>(response?.content?.["application/json"]?.examples ?? {})[0];
  if (!first) throw new Error(`${operationId} has no success example`);
  return structuredClone(deref(first).value);
}

const schemaBase = "urn:authsvc:openapi";
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// The components under one id, so a `#/components/...` reference resolves from anywhere.
ajv.addSchema({ $id: schemaBase, components: document.components });

const validators = new Map<string, ValidateFunction>();

function validatorFor(ref: string): ValidateFunction {
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: `${schemaBase}${ref}` });
    validators.set(ref, validate);
  }
  return validate;
}

function errorsOf(validate: ValidateFunction, value: unknown): string | undefined {
  return validate(value) ? undefined : ajv.errorsText(validate.errors, { dataVar: "body" });
}

/** Why `body` does not match the operation's 200 response schema, or undefined when it does. */
export function successSchemaErrors(operationId: OperationId, body: unknown): string | undefined {
  const response = deref(operationObject(operationId).responses[String(operations[operationId].successStatus)]);
  const ref = response?.content?.["application/json"]?.schema?.$ref;
  if (typeof ref !== "string") throw new Error(`${operationId}: the success schema is not a component $ref`);
  return errorsOf(validatorFor(ref), body);
}

/** Why `body` is not a Problem (RFC 9457 + `code`), or undefined when it is. */
export function problemSchemaErrors(body: unknown): string | undefined {
  return errorsOf(validatorFor("#/components/schemas/Problem"), body);
}
