// Runs after `redocly bundle` on the bundled document. The 409/413/415/429/500/503 responses
// are written once in openapi/components/responses and answered by several operations, but
// an example's `instance` names one path. In the bundle, every operation but the one the
// shared example names gets its own copy of the response, `<Operation><Response>`, with the
// example `<Operation><Response>Problem` whose `instance` is the operation's own path (the
// one its 401 example names). So the docs and the mock never show an operation another's
// path, while the shared names stay what the operation they name shows (they are exported
// as typed examples). test/openapi/error-examples.test.ts checks the result.
import { readFileSync, writeFileSync } from "node:fs";
import { operationEntries } from "../server/document/walk.js";

const file = process.argv[2] ?? "generated/openapi.json";
const doc = JSON.parse(readFileSync(file, "utf8"));
const problemJson = "application/problem+json";

type Node = any;

const componentName = (ref: string) => ref.split("/").pop()!;
const pascal = (operationId: string) => operationId[0]!.toUpperCase() + operationId.slice(1);

/** The example value a Problem response shows (its one named example). */
function exampleOf(response: Node): { name: string; value: Node } {
  const refs = Object.values<Node>(response.content?.[problemJson]?.examples ?? {});
  if (refs.length !== 1 || !refs[0].$ref) throw new Error(`a problem response needs exactly one named example: ${JSON.stringify(response.content)}`);
  const name = componentName(refs[0].$ref);
  return { name, value: doc.components.examples[name].value };
}

// Every operation, on any of the eight methods of a path item.
const operations = operationEntries<Node>(doc).map((entry) => entry.operation);
const users = new Map<string, number>();
for (const operation of operations) {
  for (const response of Object.values<Node>(operation.responses)) if (response.$ref) users.set(response.$ref, (users.get(response.$ref) ?? 0) + 1);
}

for (const operation of operations) {
  const unauthorized = operation.responses["401"];
  if (!unauthorized?.$ref) throw new Error(`${operation.operationId}: no 401 response component to take its path from`);
  const ownPath: string = exampleOf(doc.components.responses[componentName(unauthorized.$ref)]).value.instance;
  for (const [status, reference] of Object.entries<Node>(operation.responses)) {
    if (!reference.$ref || (users.get(reference.$ref) ?? 0) < 2) continue;
    const shared = componentName(reference.$ref);
    const response = doc.components.responses[shared];
    const example = exampleOf(response);
    if (example.value.instance === ownPath) continue;
    const name = `${pascal(operation.operationId)}${shared}`;
    doc.components.examples[`${name}Problem`] = { ...doc.components.examples[example.name], value: { ...example.value, instance: ownPath } };
    doc.components.responses[name] = {
      ...response,
      content: { [problemJson]: { ...response.content[problemJson], examples: { [`${name}Problem`]: { $ref: `#/components/examples/${name}Problem` } } } },
    };
    operation.responses[status] = { $ref: `#/components/responses/${name}` };
  }
}

// Components in the order the operations first reference them, as redocly bundle writes them.
const responseOrder = operations.flatMap((operation) => Object.values<Node>(operation.responses).flatMap((r) => (r.$ref ? [componentName(r.$ref)] : [])));
const reordered = (record: Record<string, Node>, first: string[]) =>
  Object.fromEntries([...new Set([...first.filter((name) => name in record), ...Object.keys(record)])].map((name) => [name, record[name]]));
doc.components.responses = reordered(doc.components.responses, responseOrder);
writeFileSync(file, JSON.stringify(doc, null, 2) + "\n");
