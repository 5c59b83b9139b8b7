// The server package as a backend developer gets it: the run's consumer project with the
// packed packages and the peers Express and express-openapi-validator installed
// (test/support/pack.ts), a small service there
// (backend-consumer/service.mjs) implementing the nine handlers over its own in-memory map on
// the `/express` entry, and `npx authsvc-api-conformance` (the development package) run against it with a fixtures
// file: every check runs and passes. The same service without one handler does not start,
// naming it. And a service started from `npx authsvc-api stubs`: it compiles, answers every
// operation with the 501 problem, and after a package update with a changed contract the
// rerun leaves its implemented handler byte for byte and names what changed.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../generated/operations.js";
import { changedContract } from "../support/changed-contract.js";
import { exampleBody, pathExample, successExample } from "../support/document.js";
import { fullProject, npx, run } from "../support/pack.js";
import { printedUrl } from "../support/printed-url.js";

const service = readFileSync(new URL("./backend-consumer/service.mjs", import.meta.url), "utf8");
const idOf = (operationId: keyof typeof operations) => (successExample(operationId) as { result: { id: string } }).result.id;
const fixtures = {
  widget: idOf("readWidget"),
  user: (successExample("findUserActivity") as { result: { account_id: string }[] }).result[0]!.account_id,
  smsProvider: "sms_1",
  webhook: idOf("readWebhook"),
  otherApplication: { apiKey: "key-b", apiSecret: "secret-b" },
};

let project: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  project = await fullProject();
  writeFileSync(join(project, "service.mjs"), service);
  writeFileSync(join(project, "fixtures.json"), JSON.stringify(fixtures));
}, 1_200_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Starts `node file` in the project; resolves with its URL, or rejects with its stderr when it exits first. */
function startService(file: string, cwd = project): { url: Promise<string>; exited: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [file], { cwd, env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  const printed = printedUrl(child, file);
  return { url: printed.url, exited: printed.exited.then((code) => ({ code, stderr: printed.stderr() })) };
}

describe("a service on the Express entry, in its own project", () => {
  it(`passes every conformance check (the service is ${service.split("\n").length - 1} lines)`, async () => {
    console.log(`backend consumer service: ${service.split("\n").length - 1} lines`);
    const url = await startService("service.mjs").url;
    const args = ["authsvc-api-conformance", "--base-url", url, "--api-key", "key-a", "--api-secret", "secret-a", "--fixtures", "fixtures.json", "--format", "json"];
    const { stdout } = await run(npx, args, { cwd: project, maxBuffer: 16 * 1024 * 1024 }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    const report = JSON.parse(stdout) as {
      totals: { checks: number; passed: number; failed: number; skipped: number };
      checks: { name: string; status: string; detail?: string }[];
    };
    expect(report.checks.filter((check) => check.status !== "passed")).toEqual([]);
    expect(report.totals.passed).toBe(report.totals.checks);
  }, 120_000);

  it("does not start without one of its handlers, naming it", async () => {
    const incomplete = service.replace(/^ {2}readWebhook: .*\n/m, "");
    expect(incomplete).not.toBe(service);
    writeFileSync(join(project, "incomplete.mjs"), incomplete);
    const { code, stderr } = await startService("incomplete.mjs").exited;
    expect(code).toBe(1);
    expect(stderr).toContain("The handler map does not match the OpenAPI document: no handler for readWebhook (GET /webhooks/{id}).");
  }, 60_000);
});

// The team's own entry point: the map `stubs` wrote, its own credentials lookup, nothing else.
const stubsMain = `import { createContractApp, listen, type Caller } from "@authsvc/app-api-server/express";
import { handlers } from "./handlers/index.js";

const caller: Caller = { applicationId: "app_a", organizationId: "org_a" };
const api = createContractApp({
  handlers,
  authenticate: {
    authenticateBearer: async (key) => (key === "key-a" ? caller : undefined),
    authenticateKeyPair: async (key, secret) => (key === "key-a" && secret === "secret-a" ? caller : undefined),
  },
});
const { origin } = await listen(api, { port: 0 });
console.log(\`listening on \${origin}/v1\`);
`;
const serviceTsconfig = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    skipLibCheck: true,
    types: ["node"],
    outDir: "dist",
    rootDir: "src",
  },
  include: ["src"],
};
const implementedReadWidget = `import { notFound, type components, type Handler } from "@authsvc/app-api-server/express";

const widgets = new Map<string, components["schemas"]["Widget"]>();
export const readWidget: Handler<"readWidget"> = async ({ path }) => {
  const widget = widgets.get(path.id);
  if (!widget) throw notFound(\`No widget \${path.id}.\`);
  return { type: "api.application.widget.read", result: widget };
};
`;

/** The request of each operation with its documented examples and application A's credentials. */
function exampleRequest(operationId: keyof typeof operations): { url: string; init: RequestInit } {
  const { method, path, hasBody, security } = operations[operationId];
  const filled = Object.entries(pathExample(operationId)).reduce((at, [name, value]) => at.replace(`{${name}}`, encodeURIComponent(value)), path as string);
  const headers: Record<string, string> = (security as readonly string[]).includes("bearerAuth")
    ? { authorization: "Bearer key-a" }
    : { "x-api-key": "key-a", "x-api-secret": "secret-a" };
  if (hasBody) headers["content-type"] = "application/json";
  return { url: filled, init: { method: method.toUpperCase(), headers, ...(hasBody ? { body: JSON.stringify(exampleBody(operationId)) } : {}) } };
}

describe("a service started from `npx authsvc-api stubs`", () => {
  it("compiles, answers every operation with the 501 problem, and a contract update leaves its implemented handler alone, named", async () => {
    const service = join(project, "stubs-service");
    const handlers = join(service, "src/handlers");
    mkdirSync(join(service, "src"), { recursive: true });
    writeFileSync(join(service, "src/main.ts"), stubsMain);
    writeFileSync(join(service, "tsconfig.json"), JSON.stringify(serviceTsconfig));

    const first = await run(npx, ["authsvc-api", "stubs", "src/handlers"], { cwd: service });
    console.log(`$ npx authsvc-api stubs src/handlers\n${first.stdout}`);
    expect(first.stdout).toContain(`0 implemented (not touched), ${Object.keys(operations).length} answering 501 not_implemented`);
    const tsc = await run(process.execPath, [join(project, "node_modules/typescript/bin/tsc"), "-p", "."], { cwd: service }).catch((error: { stdout: string }) => error);
    expect(tsc.stdout).toBe("");

    const url = await startService("dist/main.js", service).url;
    const answers: string[] = [];
    for (const operationId of Object.keys(operations) as (keyof typeof operations)[]) {
      const { url: path, init } = exampleRequest(operationId);
      const response = await fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
      const problem = (await response.json()) as { code?: string };
      answers.push(`${init.method} ${path} → ${response.status} ${problem.code}`);
    }
    console.log(answers.join("\n"));
    expect(answers.filter((answer) => !answer.endsWith("→ 501 not_implemented"))).toEqual([]);

    // Implemented, then the package is updated: its document and operations table change.
    writeFileSync(join(handlers, "readWidget.ts"), implementedReadWidget);
    const installed = join(project, "node_modules/@authsvc/app-api-server");
    const updated = join(service, "node_modules/@authsvc/app-api-server");
    cpSync(installed, updated, { recursive: true, dereference: true });
    const document = changedContract(JSON.parse(readFileSync(join(installed, "dist/generated/openapi.json"), "utf8")));
    writeFileSync(join(updated, "dist/generated/openapi.json"), JSON.stringify(document));
    writeFileSync(join(service, "updated.json"), JSON.stringify(document));
    const root = fileURLToPath(new URL("../../", import.meta.url));
    await run(process.execPath, ["--import", "tsx", "scripts/generate-operations.ts", join(service, "updated.json"), join(service, "operations.ts")], { cwd: root });
    const table = readFileSync(join(service, "operations.ts"), "utf8")
      .replace(" as const;", ";")
      .replace(/\/\*\* An operationId[\s\S]*$/, "");
    writeFileSync(join(updated, "dist/generated/operations.js"), table);

    const rerun = await run(process.execPath, [join(updated, "dist/cli/authsvc-api.js"), "stubs", "src/handlers"], { cwd: service });
    console.log(`$ npx authsvc-api stubs src/handlers   # with the updated package\n${rerun.stdout}`);
    expect(readFileSync(join(handlers, "readWidget.ts"), "utf8")).toBe(implementedReadWidget);
    expect(readFileSync(join(handlers, "deleteGadget.ts"), "utf8")).toContain('Handler<"deleteGadget">');
    expect(readFileSync(join(handlers, "index.ts"), "utf8")).toContain('import { deleteGadget } from "./deleteGadget.js";');
    expect(rerun.stdout).toMatch(/added +new +deleteGadget\.ts +DELETE \/gadgets\/\{id\}/);
    expect(rerun.stdout).toMatch(
      /changed +implemented +readWidget\.ts +GET \/widgets\/\{id\}\n.*follow:\n +200 response: result required changed: \+ label\n +200 response: result\.label added/,
    );
  }, 180_000);
});

// What the docs' snippets call but do not define: the service's own data access and logger.
const docsGlobals = `import type { Caller, components } from "@authsvc/app-api-server/express";
import type { Logger } from "pino";

type S = components["schemas"];
declare global {
  const db: {
    applicationByKey(apiKey: string): Promise<Caller | undefined>;
    applicationByPair(apiKey: string, apiSecret: string): Promise<Caller | undefined>;
    widget(applicationId: string, id: string): Promise<S["Widget"] | undefined>;
    widgetRow(applicationId: string, id: string): Promise<(S["Widget"] & { internal_note: string }) | undefined>;
    webhook(applicationId: string, id: string): Promise<S["Webhook"] | undefined>;
  };
  const logger: Logger;
}
export {};
`;
const docs = ["backend.md", "handlers.md"];
const compilers = {
  "5.9": () => join(project, "node_modules/typescript/bin/tsc"),
  // The repository's pinned 7.0 (devDependency `typescript7`): the compiler is the variable here, the packages are the consumer's.
  "7.0": () => fileURLToPath(new URL("../../node_modules/typescript7/bin/tsc", import.meta.url)),
};

describe("the TypeScript of docs/backend.md and docs/handlers.md, as a service compiles it", () => {
  let dir: string;
  /** File → the error text its block's first line promises (`// fails to compile: …`), or undefined: compiles clean. */
  const expected = new Map<string, string | undefined>();

  beforeAll(async () => {
    dir = join(project, "docs-snippets");
    mkdirSync(join(dir, "src"), { recursive: true });
    // The main snippet imports the map the stubs command writes.
    await run(npx, ["authsvc-api", "stubs", "src/handlers"], { cwd: dir });
    writeFileSync(join(dir, "src/globals.d.ts"), docsGlobals);
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ ...serviceTsconfig, compilerOptions: { ...serviceTsconfig.compilerOptions, noEmit: true } }));
    for (const doc of docs) {
      const markdown = readFileSync(new URL(`../../docs/${doc}`, import.meta.url), "utf8");
      [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].forEach((block, index) => {
        const file = `src/${doc.replace(".md", "")}-${index + 1}.ts`;
        writeFileSync(join(dir, file), block[1]!);
        expected.set(file, /^\/\/ fails to compile: (.*)$/m.exec(block[1]!.split("\n")[0]!)?.[1]);
      });
    }
  }, 60_000);

  it("needs nothing but the server package: no snippet imports the contract package, nor do the server's types", () => {
    expect([...expected.keys()].length).toBeGreaterThanOrEqual(6);
    for (const file of expected.keys()) expect(readFileSync(join(dir, file), "utf8")).not.toContain("@authsvc/app-api-contract");
    const types = join(project, "node_modules/@authsvc/app-api-server/dist");
    const declarations = readdirSync(types, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".d.ts"));
    expect(declarations.filter((file) => readFileSync(join(types, file), "utf8").includes("@authsvc/app-api-contract"))).toEqual([]);
  });

  it.each(Object.keys(compilers) as (keyof typeof compilers)[])(
    "compiles under TypeScript %s, each failing block with the error its comment gives",
    async (version) => {
      const { stdout } = await run(process.execPath, [compilers[version](), "-p", "."], { cwd: dir, maxBuffer: 16 * 1024 * 1024 }).catch(
        (error: { stdout: string }) => error,
      );
      const errors = new Map<string, string>();
      for (const [, file, text] of stdout.matchAll(/^(src\/[\w.-]+\.ts)\(\d+,\d+\): error ([\s\S]*?)(?=^\S|(?![\s\S]))/gm))
        errors.set(file!, `${errors.get(file!) ?? ""}${text}`);
      for (const [file, failure] of expected) {
        if (failure === undefined) expect({ file, errors: errors.get(file) }).toEqual({ file, errors: undefined });
        else expect(errors.get(file), file).toContain(failure);
      }
      expect([...errors.keys()].filter((file) => !expected.has(file))).toEqual([]);
    },
    120_000,
  );
});
