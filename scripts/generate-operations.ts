// Writes generated/operations.ts: the table of the nine operations (operationId, method,
// path, success status, response `type`, credentials) read from the bundled document, so
// the server's router and the tests never repeat a path by hand.
import { readFileSync, writeFileSync } from "node:fs";

const [input = "generated/openapi.json", output = "generated/operations.ts"] = process.argv.slice(2);
const doc = JSON.parse(readFileSync(input, "utf8"));
const methods = ["get", "put", "post", "delete", "patch"] as const;

const rows: string[] = [];
for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
  for (const method of methods) {
    const op = item[method];
    if (!op) continue;
    const [status, response] = Object.entries<any>(op.responses).find(([code]) => code.startsWith("2"))!;
    const schemaRef: string = response.content["application/json"].schema.$ref;
    const schema = doc.components.schemas[schemaRef.split("/").pop()!];
    const security = Object.keys((op.security ?? doc.security)[0]);
    rows.push(
      `  ${op.operationId}: {\n` +
        `    method: ${JSON.stringify(method)},\n` +
        `    path: ${JSON.stringify(path)},\n` +
        `    successStatus: ${Number(status)},\n` +
        `    responseType: ${JSON.stringify(schema.properties.type.const)},\n` +
        `    list: ${"meta" in schema.properties},\n` +
        `    hasBody: ${Boolean(op.requestBody)},\n` +
        `    security: ${JSON.stringify(security)},\n` +
        `  },`,
    );
  }
}

writeFileSync(
  output,
  `// Generated from ${input} by scripts/generate-operations.ts. Do not edit: run \`npm run generate\`.\n\n` +
    `/** The operations of the document, keyed by operationId. */\n` +
    `export const operations = {\n${rows.join("\n")}\n} as const;\n\n` +
    `/** An operationId of the document. */\n` +
    `export type OperationId = keyof typeof operations;\n`,
);
