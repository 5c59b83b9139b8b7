// Writes generated/operations.ts: the table of the operations (operationId, method, path,
// lowest success status, response `type` or null when that success has no JSON envelope,
// credentials) read from the bundled document, so the server's router and the tests never
// repeat a path by hand.
import { readFileSync, writeFileSync } from "node:fs";
import { deref, operationEntries } from "../server/document/walk.js";

const [input = "generated/openapi.json", output = "generated/operations.ts"] = process.argv.slice(2);
const doc = JSON.parse(readFileSync(input, "utf8"));
const resolve = (node: any): any => deref(doc, node);

const rows: string[] = [];
// Every operation, on any of the eight methods of a path item.
for (const { path, method, operation: op } of operationEntries(doc)) {
  const [status, response] = Object.entries<any>(op.responses).find(([code]) => code.startsWith("2"))!;
  // A success without a JSON body (204, text) has no envelope: its responseType is null.
  const schema = resolve(resolve(response).content?.["application/json"]?.schema);
  const security = Object.keys((op.security ?? doc.security)[0]);
  rows.push(
    `  ${op.operationId}: {\n` +
      `    method: ${JSON.stringify(method)},\n` +
      `    path: ${JSON.stringify(path)},\n` +
      `    successStatus: ${Number(status)},\n` +
      `    responseType: ${JSON.stringify(schema?.properties?.type?.const ?? null)},\n` +
      `    list: ${Boolean(schema?.properties && "meta" in schema.properties)},\n` +
      `    hasBody: ${Boolean(op.requestBody)},\n` +
      `    security: ${JSON.stringify(security)},\n` +
      `  },`,
  );
}

writeFileSync(
  output,
  `// Generated from ${input} by scripts/generate-operations.ts. Do not edit: run \`npm run generate\`.\n\n` +
    `/** The operations of the document, keyed by operationId. */\n` +
    `export const operations = {\n${rows.join("\n")}\n} as const;\n\n` +
    `/** An operationId of the document. */\n` +
    `export type OperationId = keyof typeof operations;\n`,
);
