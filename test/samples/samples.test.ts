// The docs' code samples run against the mock, so a sample that stops working fails CI:
// each curl.sh with bash (exit 0, a JSON body with the operation's `type`) and each
// client.ts with tsx (exit 0; it throws on an error response). Each further named request
// example has its own curl.<ExampleName>.sh sending exactly that example's body. The bundle
// must embed exactly these files as x-codeSamples, so the docs show what was run.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations, type OperationId } from "../../generated/operations.js";
import { startMock, type RunningMock } from "../../mock/index.js";
import { appA } from "../support/demo.js";

const runFile = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));
const samplesDir = `${root}openapi/code_samples`;
// node with tsx's loader: one process per sample (the tsx CLI would add a second one).
const runTs = (file: string, env: NodeJS.ProcessEnv) => run(process.execPath, ["--import", "tsx", file], { env, cwd: root });
const bundle = JSON.parse(readFileSync(`${root}generated/openapi.json`, "utf8"));

// One folder per operationId (beside a README on the naming rule).
const sampleOperations = readdirSync(samplesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name as OperationId);
// tsx compiles each sample in its own process; on two busy cores that takes seconds.
const processTimeout = 90_000;
// A child that outlives its test is killed, whatever the test's outcome.
const run = (file: string, args: string[], options: { env: NodeJS.ProcessEnv; cwd: string }) => runFile(file, args, { ...options, timeout: processTimeout - 5_000 });

function embeddedSamples(operationId: OperationId): { lang: string; source: string }[] {
  const { method, path } = operations[operationId];
  return bundle.paths[path][method]["x-codeSamples"] ?? [];
}

/** The operation's named request examples, by name (the bundle keeps them as `$ref`s). */
function requestExamples(operationId: OperationId): [string, unknown][] {
  const { method, path } = operations[operationId];
  const examples = bundle.paths[path][method].requestBody?.content["application/json"].examples ?? {};
  const resolve = (node: { $ref?: string }) =>
    node.$ref
      ? node.$ref
          .slice(2)
          .split("/")
          .reduce((at: Record<string, unknown>, key: string) => at[key] as never, bundle)
      : node;
  return Object.entries<{ $ref?: string }>(examples).map(([name, node]) => [name, (resolve(node) as { value: unknown }).value]);
}

/** The JSON a curl sample sends with `-d '…'`, or undefined for a sample without a body. */
function curlBody(source: string): unknown {
  const match = /-d '([^']*)'/.exec(source);
  return match ? JSON.parse(match[1]!) : undefined;
}

/** The further curl samples of an operation: curl.<ExampleName>.sh, sorted by example order. */
const exampleCurlFiles = (operationId: OperationId): string[] =>
  readdirSync(`${samplesDir}/${operationId}`)
    .filter((name) => /^curl\..+\.sh$/.test(name))
    .sort((a, b) => exampleIndex(operationId, a) - exampleIndex(operationId, b));
const exampleIndex = (operationId: OperationId, file: string) => requestExamples(operationId).findIndex(([name]) => file === `curl.${name}.sh`);

describe("code samples", () => {
  let mock: RunningMock;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    mock = await startMock();
    // The mock takes the demo seed's keys, as the server does.
    env = { ...process.env, BASE_URL: mock.url, API_KEY: appA.apiKey, API_SECRET: appA.apiSecret };
  });
  afterAll(() => mock?.close());

  it("cover every operation", () => {
    expect([...sampleOperations].sort()).toEqual(Object.keys(operations).sort());
  });

  describe.concurrent.each(sampleOperations)("%s", (operationId) => {
    const curlFile = `${samplesDir}/${operationId}/curl.sh`;
    const clientFile = `${samplesDir}/${operationId}/client.ts`;

    it("is embedded in the bundle as x-codeSamples, unchanged", () => {
      const sources = embeddedSamples(operationId).map((sample) => sample.source);
      const further = exampleCurlFiles(operationId).map((file) => readFileSync(`${samplesDir}/${operationId}/${file}`, "utf8"));
      expect(sources).toEqual([readFileSync(curlFile, "utf8"), readFileSync(clientFile, "utf8"), ...further]);
    });

    it("has a curl sample per named request example, sending exactly its body", () => {
      const examples = requestExamples(operationId);
      const sent = embeddedSamples(operationId)
        .filter((s) => s.lang === "curl")
        .map((s) => curlBody(s.source));
      // An operation without a body has its one curl sample, which sends none.
      expect(sent).toEqual(examples.length === 0 ? [undefined] : examples.map(([, value]) => value));
      // Every further file is named after an example of this operation.
      for (const file of exampleCurlFiles(operationId)) expect(exampleIndex(operationId, file), file).toBeGreaterThan(0);
    });

    it.each(exampleCurlFiles(operationId))("%s answers the operation's envelope", async (file) => {
      const { stdout } = await run("bash", [`${samplesDir}/${operationId}/${file}`], { env, cwd: root });
      expect(JSON.parse(stdout)).toMatchObject({ type: operations[operationId].responseType });
    });

    it("curl.sh answers the operation's envelope", async () => {
      const { stdout } = await run("bash", [curlFile], { env, cwd: root });
      expect(JSON.parse(stdout)).toMatchObject({ type: operations[operationId].responseType });
    });

    it("client.ts runs to the end", { timeout: processTimeout }, async () => {
      // Resolves @authsvc/app-api-contract through tsconfig `paths`, as in the repo.
      const { stdout } = await runTs(clientFile, env);
      expect(stdout.trim()).not.toBe("");
    });
  });

  it("a sample that gets an error response fails its run", { timeout: processTimeout }, async () => {
    // Outside /v1 the mock answers 404: the sample must exit non-zero, not print and pass.
    const broken = { ...env, BASE_URL: mock.url.replace(/\/v1$/, "") };
    await expect(runTs(`${samplesDir}/readWidget/client.ts`, broken)).rejects.toMatchObject({
      code: 1,
      // The sample's own throw, with the problem the mock (as the server) answers off /v1.
      stderr: expect.stringContaining("not_found: No operation serves GET at this path."),
    });
    const { stdout } = await run("bash", [`${samplesDir}/readWidget/curl.sh`], { env: broken, cwd: root });
    expect(JSON.parse(stdout).type).not.toBe(operations.readWidget.responseType);
  });
});
