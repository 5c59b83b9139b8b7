// The server's problem kinds (server/problems.ts) repeat facts the document states: the
// codes of the Problem schema, and the type/title/status of each example problem. These
// checks keep the two from drifting: a code added to the document without a kind, or an
// example whose title, status or type URL the server would not send, fails here.
import { describe, expect, it } from "vitest";
import { loadDocument, resolveRef } from "../../../server/document/load.js";
import { problemKinds, problemTypeBase, type ProblemCode } from "../../../server/problems.js";

const document = loadDocument();

interface ProblemExample {
  type: string;
  title: string;
  status: number;
  code: ProblemCode;
}

const problemSchema = resolveRef<{ properties: { code: { enum: string[] } } }>(document, document.components!.schemas!.Problem as never);
// The closed codes of Problem, and the 501's own code (its schema is NotImplementedProblem).
const notImplemented = resolveRef<{ properties: { code: { const: string } } }>(document, document.components!.schemas!.NotImplementedProblem as never);
const documentCodes = [...problemSchema.properties.code.enum, notImplemented.properties.code.const];

const componentExamples = Object.entries(document.components?.examples ?? {})
  .filter(([name]) => name.endsWith("Problem"))
  .map(([name, example]) => [name, resolveRef<{ value: ProblemExample }>(document, example as never).value] as const);

/** Every object anywhere in the document that carries a problem `type` URL and a `code`. */
function problemLikeValues(node: unknown, at: string, found: [string, ProblemExample][] = []): [string, ProblemExample][] {
  if (Array.isArray(node)) node.forEach((item, index) => problemLikeValues(item, `${at}/${index}`, found));
  else if (node && typeof node === "object") {
    const record = node as Record<string, unknown>;
    if (typeof record.type === "string" && record.type.startsWith(problemTypeBase) && typeof record.code === "string") {
      found.push([at, record as unknown as ProblemExample]);
    }
    for (const [key, value] of Object.entries(record)) problemLikeValues(value, `${at}/${key}`, found);
  }
  return found;
}

/** What the server sends for a code, in the fields an example states. */
const sentFor = (code: ProblemCode) => ({ code, type: `${problemTypeBase}${code}`, title: problemKinds[code]?.title, status: problemKinds[code]?.status });
const statedBy = (example: ProblemExample) => ({ code: example.code, type: example.type, title: example.title, status: example.status });

describe("problem kinds against the document", () => {
  it("has a kind for every code of the Problem schema, and no other", () => {
    expect(documentCodes.length).toBeGreaterThan(0);
    expect(Object.keys(problemKinds).sort()).toEqual([...documentCodes].sort());
  });

  it("finds the example problems of components.examples", () => {
    expect(componentExamples.length).toBeGreaterThan(0);
  });

  it.each(componentExamples)("%s has the type, title and status the server sends for its code", (_name, example) => {
    expect(statedBy(example)).toEqual(sentFor(example.code));
  });

  it("every other problem-shaped example in the document agrees too", () => {
    const found = problemLikeValues(document, "#");
    expect(found.length).toBeGreaterThanOrEqual(componentExamples.length);
    const disagreeing = found.filter(([, example]) => JSON.stringify(statedBy(example)) !== JSON.stringify(sentFor(example.code))).map(([at]) => at);
    expect(disagreeing).toEqual([]);
  });
});
