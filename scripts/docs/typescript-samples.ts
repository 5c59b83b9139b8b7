// The TypeScript client's sample for each request example of an operation. The document
// carries one `client.ts` per operation (openapi/code_samples/, run by
// test/samples/samples.test.ts), written with its first example's body; the docs page needs
// one per example so the sample follows the Example picker as the generated languages do.
// Scalar shows, for the example chosen, the `x-codeSamples` entry whose `example` names it
// (entries of one lang and label form one client). Each entry here is that operation's
// `client.ts` with the `body` of its `api.METHOD(…)` call replaced by the example's value:
// the value comes from the document, the rest of the call from the file that is type-checked
// and run, so no example's sample is written by hand.
import ts from "typescript";

export interface ExampleSample {
  lang: string;
  label: string;
  example: string;
  source: string;
}

/**
 * A JSON value as a TypeScript literal, laid out as the samples are (biome's style): an object
 * one property a line with identifier keys unquoted and trailing commas, an array of scalars
 * on one line. `indent` is the indentation of the line the literal starts on.
 */
export function literal(value: unknown, indent = ""): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== "object")) return `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
    return `[\n${value.map((item) => `${inner}${literal(item, inner)},`).join("\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (!entries.length) return "{}";
    const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
    return `{\n${entries.map(([name, item]) => `${inner}${key(name)}: ${literal(item, inner)},`).join("\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** A property of the options of the client call (`api.GET(…)`, `api.POST(…)`, …) in a sample: `body`, `params`. */
function propertyOfCall(file: ts.SourceFile, name: string): ts.PropertyAssignment | undefined {
  let found: ts.PropertyAssignment | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      /^[A-Z]+$/.test(node.expression.name.text) &&
      node.arguments[1] &&
      ts.isObjectLiteralExpression(node.arguments[1])
    ) {
      found = node.arguments[1].properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText(file) === name);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The sample once per example, each sending that example's value as its body. */
export function samplesPerExample(sample: { lang: string; label: string; source: string }, examples: [name: string, value: unknown][]): ExampleSample[] {
  const file = ts.createSourceFile("client.ts", sample.source, ts.ScriptTarget.Latest, true);
  const body = propertyOfCall(file, "body");
  if (!body) throw new Error(`the ${sample.label} sample has no body in its client call:\n${sample.source}`);
  const start = body.initializer.getStart(file);
  const lineStart = sample.source.lastIndexOf("\n", body.getStart(file)) + 1;
  const indent = /^\s*/.exec(sample.source.slice(lineStart))![0];
  return examples.map(([example, value]) => ({
    lang: sample.lang,
    label: sample.label,
    example,
    source: sample.source.slice(0, start) + literal(value, indent) + sample.source.slice(body.initializer.end),
  }));
}

/** A literal of a sample (object, array, string, number, boolean, null) as its value. */
function literalValue(node: ts.Expression, file: ts.SourceFile): unknown {
  if (ts.isObjectLiteralExpression(node))
    return Object.fromEntries(
      node.properties.map((p) => {
        if (!ts.isPropertyAssignment(p)) throw new Error(`not a plain property in a sample's literal: ${p.getText(file)}`);
        const key = ts.isStringLiteral(p.name) ? p.name.text : p.name.getText(file);
        return [key, literalValue(p.initializer, file)];
      }),
    );
  if (ts.isArrayLiteralExpression(node)) return node.elements.map((e) => literalValue(e, file));
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) return -Number(node.operand.text);
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (node.kind === ts.SyntaxKind.NullKeyword) return null;
  throw new Error(`not a literal in a sample: ${node.getText(file)}`);
}

/**
 * The `params` the sample's client call sends (`{ path: { id: "…" }, query: { limit: 10 } }`):
 * the parameters every other language's sample and the console send too, so all agree with
 * the sample that is type-checked and run.
 */
export function paramsOfSample(source: string): { path?: Record<string, unknown>; query?: Record<string, unknown> } {
  const file = ts.createSourceFile("client.ts", source, ts.ScriptTarget.Latest, true);
  const params = propertyOfCall(file, "params");
  return params ? (literalValue(params.initializer, file) as { path?: Record<string, unknown>; query?: Record<string, unknown> }) : {};
}

/**
 * The sample as a reader pastes it: the environment variables it reads (`process.env.BASE_URL!`,
 * `API_KEY`, `API_SECRET`) replaced by the values for the chosen server, written as strings.
 */
export function withValues(source: string, values: { BASE_URL: string; API_KEY: string; API_SECRET: string }): string {
  return source.replace(/process\.env\.(BASE_URL|API_KEY|API_SECRET)!/g, (_, name: keyof typeof values) => JSON.stringify(values[name]));
}
