// Writes generated/examples.ts: every named example of the bundled document as a typed
// constant (`satisfies` the schema of the request body or response that shows it, so an
// example the types reject fails `tsc`), and per operation the documented answers (status,
// content type, headers with their documented examples, example names), which the MSW
// handlers serve, and its path parameters' examples and query parameters' defaults, by which
// the mock and the handlers answer a request (mock/answer.ts). Frontend unit tests import these instead of copying JSON. Every constant is
// `as const` (literal types) and deeply frozen, so a test that changes a fixture by mistake
// throws instead of changing it for every later test; `copyOf()` gives a mutable copy.
import { readFileSync, writeFileSync } from "node:fs";
import { deref as derefIn, operationEntries } from "../server/document/walk.js";

const [input = "generated/openapi.json", output = "generated/examples.ts"] = process.argv.slice(2);
const doc = JSON.parse(readFileSync(input, "utf8"));

type Node = any;

const deref = (node: Node): Node => derefIn(doc, node);

const componentName = (ref: string) => ref.split("/").pop()!;

/** Example name → the TypeScript type its value must satisfy, and where it is shown. */
const typeOf = new Map<string, { type: string; where: string[] }>();

function record(examples: Node, schema: Node, fallbackType: string, where: string): string[] {
  const names: string[] = [];
  for (const [key, example] of Object.entries<Node>(examples ?? {})) {
    if (!example.$ref) throw new Error(`${where}: example ${key} is inline; name it in components/examples`);
    const name = componentName(example.$ref);
    const type = schema?.$ref ? `Schemas[${JSON.stringify(componentName(schema.$ref))}]` : fallbackType;
    const seen = typeOf.get(name);
    if (seen && seen.type !== type) throw new Error(`example ${name} is shown with two schemas: ${seen.type} and ${type}`);
    typeOf.set(name, { type, where: [...(seen?.where ?? []), where] });
    names.push(name);
  }
  return names;
}

const answers: string[] = [];
const parameters: string[] = [];
// Every operation, on any of the eight methods of a path item.
for (const { path, method, operation: op } of operationEntries(doc)) {
  const own = [...(doc.paths[path].parameters ?? []), ...(op.parameters ?? [])].map(deref);
  const pathExamples = Object.fromEntries(own.filter((p) => p.in === "path").map((p) => [p.name, p.example]));
  const queryDefaults = Object.fromEntries(own.filter((p) => p.in === "query" && deref(p.schema)?.default !== undefined).map((p) => [p.name, deref(p.schema).default]));
  parameters.push(`  ${op.operationId}: { path: ${JSON.stringify(pathExamples)}, queryDefaults: ${JSON.stringify(queryDefaults)} },`);
  const opType = `paths[${JSON.stringify(path)}][${JSON.stringify(method)}]`;
  for (const [contentType, media] of Object.entries<Node>(deref(op.requestBody)?.content ?? {})) {
    record(media.examples, media.schema, `NonNullable<${opType}["requestBody"]>["content"][${JSON.stringify(contentType)}]`, `${op.operationId} request`);
  }
  const statuses: string[] = [];
  for (const [status, ref] of Object.entries<Node>(op.responses)) {
    const response = deref(ref);
    const [contentType, media] = Object.entries<Node>(response.content ?? {})[0] ?? [];
    // A response without a body (a DELETE's 204) is an answer too: no content type, no example.
    const names = contentType
      ? record(media.examples, media.schema, `${opType}["responses"][${status}]["content"][${JSON.stringify(contentType)}]`, `${op.operationId} ${status}`)
      : [];
    const headers = Object.fromEntries(
      Object.entries<Node>(response.headers ?? {})
        .map(([name, header]) => [name, deref(header).example] as const)
        .filter(([, example]) => example !== undefined)
        .map(([name, example]) => [name, String(example)]),
    );
    statuses.push(`    ${status}: { contentType: ${JSON.stringify(contentType ?? null)}, headers: ${JSON.stringify(headers)}, examples: ${JSON.stringify(names)} },`);
  }
  answers.push(`  ${op.operationId}: {\n${statuses.join("\n")}\n  },`);
}

const unused = Object.keys(doc.components.examples).filter((name) => !typeOf.has(name));
if (unused.length > 0) throw new Error(`examples shown by no operation: ${unused.join(", ")}`);

const constants = Object.entries<Node>(doc.components.examples).map(([name, example]) => {
  const { type, where } = typeOf.get(name)!;
  const value = JSON.stringify(example.value, null, 2);
  return `/** ${example.summary ?? name} (${where.join("; ")}). */\nexport const ${name} = deepFreeze(${value} as const satisfies DeepReadonly<${type}>);`;
});

// `paths` types only the examples of an inline schema (none while every schema is named):
// imported when used, since an unused import fails `npm run lint`.
const schemaTypes = ["components", ...([...typeOf.values()].some(({ type }) => type.includes("paths[")) ? ["paths"] : [])];

writeFileSync(
  output,
  `// Generated from ${input} by scripts/generate-examples.ts. Do not edit: run \`npm run generate\`.\n` +
    `import type { ${schemaTypes.join(", ")} } from "./schema.js";\n\n` +
    `type Schemas = components["schemas"];\n\n` +
    `/** \`T\` with every property and array read-only, as the frozen examples are. */\n` +
    `export type DeepReadonly<T> = T extends (infer U)[] ? readonly DeepReadonly<U>[] : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;\n\n` +
    `/** \`T\` with every property and array writable again (what \`copyOf\` returns). */\n` +
    `export type Mutable<T> = T extends readonly (infer U)[] ? Mutable<U>[] : T extends object ? { -readonly [K in keyof T]: Mutable<T[K]> } : T;\n\n` +
    `function deepFreeze<T>(value: T): T {\n` +
    `  if (value && typeof value === "object" && !Object.isFrozen(value)) {\n` +
    `    for (const item of Object.values(value)) deepFreeze(item);\n` +
    `    Object.freeze(value);\n` +
    `  }\n` +
    `  return value;\n` +
    `}\n\n` +
    `/** A deep, writable copy of an example, for a test that needs to change one (a request body, say). */\n` +
    `export function copyOf<T>(example: T): Mutable<T> {\n` +
    `  return structuredClone(example) as Mutable<T>;\n` +
    `}\n\n` +
    `${constants.join("\n\n")}\n\n` +
    `/** Every named example of the document, by name. */\n` +
    `export const examples = deepFreeze({\n${Object.keys(doc.components.examples)
      .map((name) => `  ${name},`)
      .join("\n")}\n});\n\n` +
    `/** The name of a documented example. */\n` +
    `export type ExampleName = keyof typeof examples;\n\n` +
    `/**\n * Each operation's documented answers by status: content type, the documented example of\n` +
    ` * each response header, and the names of its examples (the first is the default, as on the mock).\n */\n` +
    `export const responseExamples = deepFreeze({\n${answers.join("\n")}\n} as const satisfies Record<string, Record<number, { contentType: string | null; headers: Record<string, string>; examples: readonly ExampleName[] }>>);\n\n` +
    `/**\n * Each operation's path parameters with their documented examples (the ids its examples\n` +
    ` * show), and the documented defaults of its query parameters (what a request that leaves one out gets).\n */\n` +
    `export const parameterExamples = deepFreeze({\n${parameters.join("\n")}\n} as const satisfies Record<string, { path: Record<string, string>; queryDefaults: Record<string, unknown> }>);\n`,
);
