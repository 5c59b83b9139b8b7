// The bundled document as the store tests read it: each operation's examples (request and
// 200 response), its path-parameter examples, and an Ajv validator of its 200 body.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { operations, type OperationId } from "../../../generated/operations.js";

type Json = Record<string, any>;
export const document: Json = JSON.parse(readFileSync(new URL("../../../generated/openapi.json", import.meta.url), "utf8"));

const deref = (node: Json): Json => (typeof node?.$ref === "string" ? deref(node.$ref.slice(2).split("/").reduce((at: Json, key: string) => at[key], document)) : node);

function operationOf(op: OperationId): Json {
  const { method, path } = operations[op];
  return document.paths[path][method];
}

/** Named examples of the operation's JSON request body, in document order. */
export function requestExamples(op: OperationId): [string, unknown][] {
  const examples = operationOf(op).requestBody?.content["application/json"].examples ?? {};
  return Object.entries(examples).map(([name, example]) => [name, deref(example as Json).value]);
}

/** Named examples of the operation's 200 body, in document order. */
export function responseExamples(op: OperationId): [string, Json][] {
  const examples = operationOf(op).responses["200"].content["application/json"].examples ?? {};
  return Object.entries(examples).map(([name, example]) => [name, deref(example as Json).value]);
}

/** The path parameters of the operation, each set to its documented example. */
export function pathExample(op: OperationId): Record<string, string> {
  const parameters = (operationOf(op).parameters ?? []).map(deref).filter((p: Json) => p.in === "path");
  return Object.fromEntries(parameters.map((p: Json) => [p.name, p.example]));
}

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: "doc", components: document.components });

/** Errors of `body` against the operation's 200 schema ([] when valid). */
export function responseErrors(op: OperationId, body: unknown): string[] {
  const ref = operationOf(op).responses["200"].content["application/json"].schema.$ref as string;
  const validate = ajv.getSchema(`doc${ref}`)!;
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
