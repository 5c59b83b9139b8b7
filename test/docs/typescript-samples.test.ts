// The docs build's TypeScript client samples, one per request example
// (scripts/docs/typescript-samples.ts), in-process: each example's value printed as a
// literal that evaluates back to the same value, and placed as the body of the client call
// of the operation's client.ts, nothing else of the file changed. (test/docs/render.test.ts
// runs them from the rendered page against the mock.)
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { literal, paramsOfSample, samplesPerExample, withValues } from "../../scripts/docs/typescript-samples.js";
import { deref, operations } from "../openapi/document.js";

const root = new URL("../../", import.meta.url).pathname;
const evaluate = (text: string): unknown => new Function(`return (${text});`)();

const withExamples = operations()
  .map(({ op }) => ({
    operationId: op.operationId as string,
    examples: Object.entries<object>(op.requestBody ? (deref(op.requestBody).content["application/json"].examples ?? {}) : {}).map(
      ([name, example]) => [name, (deref(example) as { value: unknown }).value] as [string, unknown],
    ),
  }))
  .filter((entry) => entry.examples.length > 0);

describe("the TypeScript client's sample per request example", () => {
  it("prints every example's value as a literal that evaluates to that value", () => {
    expect(withExamples.length).toBeGreaterThanOrEqual(3);
    for (const { examples } of withExamples) for (const [name, value] of examples) expect(evaluate(literal(value)), name).toEqual(value);
    // Keys that are not identifiers stay quoted; strings keep their quotes and escapes.
    const odd = { "a-b": 1, ok: ['say "hi"', "line\nbreak", null, true], nested: [{ x: [] }], "": {} };
    expect(evaluate(literal(odd))).toEqual(odd);
    expect(literal({ "a-b": 1, ok: 2 })).toBe('{\n  "a-b": 1,\n  ok: 2,\n}');
  });

  it("writes the operation's client.ts once per example, its call's body that example's value and the rest unchanged", () => {
    for (const { operationId, examples } of withExamples) {
      const source = readFileSync(`${root}openapi/code_samples/${operationId}/client.ts`, "utf8");
      const samples = samplesPerExample({ lang: "TypeScript", label: "TypeScript client", source }, examples);
      expect(samples.map((s) => s.example)).toEqual(examples.map(([name]) => name));
      samples.forEach((sample, i) => {
        const body = /^ *body: ([\s\S]*?),\n\}\);$/m.exec(sample.source);
        expect(body, `${operationId} ${sample.example}`).not.toBeNull();
        expect(evaluate(body![1]!)).toEqual(examples[i]![1]);
        // Outside the body, the text is client.ts's.
        const [before, after] = sample.source.split(body![1]!);
        expect(source.startsWith(before!)).toBe(true);
        expect(source.endsWith(after!)).toBe(true);
      });
    }
  });

  it("refuses a sample without a body in its client call", () => {
    expect(() =>
      samplesPerExample({ lang: "TypeScript", label: "TypeScript client", source: 'const { data } = await api.GET("/webhooks", {});\n' }, [["One", { a: 1 }]]),
    ).toThrow(/no body in its client call/);
  });

  it("reads the path and query values of the client call, which every other language's sample sends too", () => {
    const source = readFileSync(`${root}openapi/code_samples/findEncryptionReports/client.ts`, "utf8");
    expect(paramsOfSample(source)).toEqual({ query: { country: "ES", device_type: "ANDROID", start_date: 1767225600, end_date: 1798761599, limit: 10 } });
    expect(paramsOfSample('await api.GET("/widgets/{id}", { params: { path: { id: "wgt_1" } } });')).toEqual({ path: { id: "wgt_1" } });
    expect(() => paramsOfSample('await api.GET("/x", { params: { query: { id: someVariable } } });')).toThrow(/not a literal/);
  });

  it("writes the server's base URL and keys in place of the environment variables a reader would otherwise have to set", () => {
    const source = readFileSync(`${root}openapi/code_samples/createNotification/client.ts`, "utf8");
    const pasted = withValues(source, { BASE_URL: "https://api.example/v1", API_KEY: "YOUR_API_KEY", API_SECRET: "YOUR_API_SECRET" });
    expect(pasted).not.toContain("process.env");
    expect(pasted).toContain('baseUrl: "https://api.example/v1",');
    expect(pasted).toContain('apiKey: "YOUR_API_KEY",');
    expect(pasted).toContain('apiSecret: "YOUR_API_SECRET",');
  });
});
