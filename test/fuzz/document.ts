// The bundled document as the fuzz, bad-input and security suites read it: each operation's
// parameters, request body schema and documented responses, and one Ajv (draft 2020-12)
// that checks a response against what the document says that status carries.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { operations, type OperationId } from "../../generated/operations.js";

/** A JSON Schema of the document (the subset it uses), loosely typed on purpose. */
export type Schema = { [keyword: string]: any } | boolean;

export const document = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));

/** Follows `#/...` references inside the document. */
export function deref<T = any>(node: any): T {
  let current = node;
  while (current && typeof current === "object" && typeof current.$ref === "string" && current.$ref.startsWith("#/")) {
    current = current.$ref
      .slice(2)
      .split("/")
      .map((s: string) => s.replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce((n: any, key: string) => n?.[key], document);
  }
  return current as T;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: Schema;
}

export interface OperationInfo {
  id: OperationId;
  method: string;
  path: string;
  parameters: Parameter[];
  bodySchema?: Schema;
  /** Documented statuses, each with its media type and schema. */
  responses: Record<string, { mediaType: string; schema: Schema }>;
  security: readonly string[];
}

export const operationIds = Object.keys(operations) as OperationId[];

export function operation(id: OperationId): OperationInfo {
  const { method, path, security } = operations[id];
  const raw = document.paths[path][method];
  const responses: OperationInfo["responses"] = {};
  for (const [status, ref] of Object.entries(raw.responses)) {
    const response = deref(ref);
    const [mediaType, media] = Object.entries(response.content ?? {})[0] as [string, { schema: Schema }];
    responses[status] = { mediaType, schema: media.schema };
  }
  return {
    id,
    method,
    path,
    parameters: (raw.parameters ?? []).map((p: unknown) => deref<Parameter>(p)),
    bodySchema: raw.requestBody ? deref(raw.requestBody).content["application/json"].schema : undefined,
    responses,
    security,
  };
}

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
// The document itself is registered once so that every `#/components/...` reference resolves.
ajv.addSchema({ ...document, $id: "https://contract.test/openapi.json" });

const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
/** An Ajv validator for a schema node of the document (references resolved against it). */
export function validator(schema: Schema) {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(rebase(schema));
    compiled.set(key, validate);
  }
  return validate;
}

/** Rewrites local references so a fragment compiled alone still resolves against the document. */
function rebase(node: any): any {
  if (Array.isArray(node)) return node.map(rebase);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `https://contract.test/openapi.json${v}` : rebase(v)]),
  );
}

/** What is wrong with a response, measured against the document; empty when it conforms. */
export function responseViolations(id: OperationId, status: number, contentType: string | null, body: unknown): string[] {
  const documented = operation(id).responses[String(status)];
  if (!documented) return [`status ${status} is not documented for ${id}`];
  const problems: string[] = [];
  const expected = status < 300 ? "application/json" : "application/problem+json";
  const mediaType = (contentType ?? "").split(";")[0]!.trim();
  if (mediaType !== expected) problems.push(`content-type ${contentType} (expected ${expected})`);
  if (documented.mediaType !== expected) problems.push(`the document gives ${documented.mediaType} for ${status}`);
  const validate = validator(documented.schema);
  if (!validate(body)) problems.push(`body off the ${status} schema: ${ajv.errorsText(validate.errors)}`);
  return problems;
}
