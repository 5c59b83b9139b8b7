// Generated answers (`Prefer: dynamic=true`): Prism's JSON Schema generator
// (json-schema-faker) over the operation's response schema, loaded on first use (it takes
// seconds to load, and most runs never ask for it). Generated data is random within the
// schema; what random data cannot get right (the path's id, a list's paging) mock/answer.ts
// puts right, as for the examples.
import { createRequire } from "node:module";
import type { ApiDocument } from "../server/document/load.js";

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

/** A generated body for the operation's `status` answer. */
export async function dynamicAnswer(document: ApiDocument, operationId: string, status: number): Promise<unknown> {
  const { generate, operations } = await load(document);
  const operation = operations.get(operationId);
  const schema = operation?.responses.find((response) => response.code === String(status))?.contents?.[0]?.schema;
  if (!operation || !schema) throw new Error(`no schema to generate ${operationId} ${status} from`);
  const generated = generate(operation, operation.__bundled__, schema);
  if (generated._tag === "Left") throw generated.left;
  return generated.right;
}
