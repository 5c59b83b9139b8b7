// Generated answers (`Prefer: dynamic=true`): Prism's JSON Schema generator
// (json-schema-faker) over the operation's response schema, loaded on first use (it takes
// seconds to load, and most runs never ask for it). Generated data is random within the
// schema, so what random data cannot get right is put right after: the path's `id` is the
// record's own `id`, and a list's `meta` agrees with its page (the page asked for, `limit`
// records on each of three pages, the last one short), so a walk over the pages ends.
import { createRequire } from "node:module";
import { operationsOf, resolveRef, type ApiDocument } from "../server/document/load.js";
import type { ParameterObject } from "../server/document/types.js";
import { pageOf } from "../server/rules/paging.js";

type Generate = (resource: unknown, bundle: unknown, schema: unknown) => { _tag: "Left"; left: Error } | { _tag: "Right"; right: unknown };
interface PrismOperation {
  iid?: string;
  id: string;
  responses: { code: string; contents?: { mediaType: string; schema?: unknown }[] }[];
  __bundled__?: unknown;
}

const require = createRequire(import.meta.url);
let loaded: Promise<{ generate: Generate; operations: Map<string, PrismOperation> }> | undefined;

/** Loads the generator and the document as Prism reads it (once per process and document). */
function load(document: ApiDocument) {
  return (loaded ??= (async () => {
    const { getHttpOperationsFromSpec } = await import("@stoplight/prism-http");
    const { generate } = require("@stoplight/prism-http/dist/mocker/generator/JSONSchema.js") as { generate: Generate };
    const operations = (await getHttpOperationsFromSpec(structuredClone(document))) as unknown as PrismOperation[];
    return { generate, operations: new Map(operations.map((operation) => [operation.iid ?? operation.id, operation])) };
  })());
}

/** Pages a dynamic list has, whatever the limit. */
export const dynamicPageCount = 3;

/** The page asked for of a list of `limit` × 2 + 1 records made of the generated ones, paged by the server's own rule. */
function pageAsked(body: { meta: unknown; result: unknown[] }, query: Record<string, unknown>, defaultLimit: number) {
  const limit = typeof query.limit === "number" ? query.limit : defaultLimit;
  const page = typeof query.page === "number" ? query.page : 1;
  const total = body.result.length === 0 ? 0 : limit * (dynamicPageCount - 1) + 1;
  const records = Array.from({ length: total }, (_, index) => body.result[index % body.result.length]);
  return { ...body, ...pageOf(records, { limit, page }) };
}

/** The documented default of the operation's `limit` query parameter. */
function defaultLimit(document: ApiDocument, operationId: string): number {
  const operation = operationsOf(document).find((entry) => entry.operationId === operationId)?.operation;
  const limit = (operation?.parameters ?? []).map((p) => resolveRef<ParameterObject>(document, p)).find((p) => p.in === "query" && p.name === "limit");
  const schema = limit?.schema ? resolveRef<{ default?: unknown }>(document, limit.schema as never) : undefined;
  if (typeof schema?.default !== "number") throw new Error(`${operationId} is a list without a documented default limit`);
  return schema.default;
}

/** A generated body for the operation's `status` answer. */
export async function dynamicAnswer(
  document: ApiDocument,
  operationId: string,
  status: number,
  input: { path: Record<string, unknown>; query: Record<string, unknown> },
): Promise<unknown> {
  const { generate, operations } = await load(document);
  const operation = operations.get(operationId);
  const schema = operation?.responses.find((response) => response.code === String(status))?.contents?.[0]?.schema;
  if (!operation || !schema) throw new Error(`no schema to generate ${operationId} ${status} from`);
  const generated = generate(operation, operation.__bundled__, schema);
  if (generated._tag === "Left") throw generated.left;
  let body = generated.right as Record<string, unknown>;
  const result = body.result;
  if (result && typeof result === "object" && !Array.isArray(result) && typeof input.path.id === "string" && "id" in result) {
    body = { ...body, result: { ...result, id: input.path.id } };
  }
  if (body.meta && Array.isArray(body.result)) body = pageAsked(body as never, input.query, defaultLimit(document, operationId));
  return body;
}
