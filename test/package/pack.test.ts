// The four packages as consumers get them: what each tarball holds, what each declares,
// and the contract package installed alone into a fresh project: its footprint (printed and
// bounded: a frontend or a calling service ships it), a tree without Prism, Express, Ajv or
// pino, and a consumer file that imports the client and the types by the package name and
// makes a typed call, type-checked by the repo's tsc and then run by node, so both the
// `types` and the ESM `default` entries of `exports` must resolve.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { bytesUnder } from "../../bench/footprint/bytes.js";
import type { Footprint } from "../../bench/footprint/regions.js";
import { operations } from "../../generated/operations.js";
import { contractProject, npm, packageNames, packed, run, type PackageKey, type PackedPackage } from "../support/pack.js";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const root = new URL("../../", import.meta.url).pathname;
const name = packageNames.contract;
const manifest = (key: PackageKey) => JSON.parse(readFileSync(`packages/${key}/package.json`, "utf8"));
const version: string = JSON.parse(readFileSync("package.json", "utf8")).version;

// The consumer: a typed call against an observed fetch (no server), plus one call that must
// not compile; if the package's types failed to resolve to real types, that directive would
// be unused and tsc would fail.
const consumer = `
import { createApiClient, operations, type Problem } from "${name}";
import type { components } from "${name}/schema";
import { operations as table } from "${name}/operations";
import doc from "${name}/openapi.json" with { type: "json" };

type Widget = components["schemas"]["Widget"];

const sent: string[] = [];
const client = createApiClient({
  baseUrl: "http://127.0.0.1:4010/v1",
  apiKey: "ak_live_acme_4f9e2b7c1d8a6e3f",
  fetch: async (request) => {
    sent.push(request.method + " " + request.url + " " + request.headers.get("authorization"));
    return Response.json({ type: "api.application.widget.read", result: { id: "wgt_5a3c8e1f7b92" } });
  },
});

const { data, error } = await client.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } });
const widget: Widget | undefined = data?.result;
const problem: Problem | undefined = error;
const refused = await client
  // @ts-expect-error a client without apiSecret has no POST /notifications
  .POST("/notifications", { body: { type: "SIMPLE", title: "t", content: "c", broadcast: true } })
  .then(() => "sent", (e: Error) => e.message);

console.log(JSON.stringify({
  sent,
  id: widget?.id,
  problem: problem ?? null,
  refused,
  operations: Object.keys(operations).length,
  sameTable: table === operations,
  title: doc.info.title,
}));
`;

const tsconfig = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2023", "DOM"],
    types: [],
    strict: true,
    resolveJsonModule: true,
    // The package's own declarations are checked too, not just the consumer's use of them.
    skipLibCheck: false,
    outDir: "out",
  },
  files: ["consumer.ts"],
};

let tarballs: Record<PackageKey, PackedPackage>;
let project: string;

beforeAll(async () => {
  tarballs = await packed();
  project = await contractProject();
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify(tsconfig));
  writeFileSync(join(project, "consumer.ts"), consumer);
}, 1_200_000);

describe("npm pack", () => {
  test("each package holds what its audience needs, at the repository's one version", () => {
    expect(tarballs.contract.files).toEqual(
      expect.arrayContaining([
        "package.json",
        "dist/CHANGELOG.md",
        "dist/client/index.js",
        "dist/client/index.d.ts",
        "dist/client/api-client.d.ts",
        "dist/generated/operations.js",
        "dist/generated/operations.d.ts",
        "dist/generated/examples.js",
        "dist/generated/schema.d.ts",
        "dist/generated/openapi.json",
      ]),
    );
    // The docs site (4.5 MB with Scalar's reference) outgrew the package's 5 MB bound and left
    // it, as docs/publishing.md planned: it is built by `npm run docs` and hosted or attached.
    expect(tarballs.contract.files.filter((file: string) => file.startsWith("dist/docs/"))).toEqual([]);
    expect(tarballs.mock.files).toEqual(
      expect.arrayContaining([
        "package.json",
        "dist/cli/authsvc-api.js",
        "dist/cli/mock.js",
        "dist/mock/index.js",
        "dist/mock/index.d.ts",
        "dist/msw/index.js",
        "dist/generated/openapi.json",
        // Its validators precompiled, as the server's: nothing compiles at start or on a first request.
        "dist/generated/validators.cjs",
      ]),
    );
    expect(tarballs.server.files).toEqual(
      expect.arrayContaining([
        "package.json",
        "dist/cli/authsvc-api.js",
        "dist/cli/serve.js",
        "dist/cli/stubs.js",
        "dist/generated/operations.js",
        "dist/generated/operations.d.ts",
        "dist/server/reference-server.js",
        "dist/server/seed/demo.json",
        "dist/server/contract-layer/index.js",
        "dist/server/contract-layer/index.d.ts",
        "dist/generated/openapi.json",
      ]),
    );
    expect(tarballs.conformance.files).toEqual(
      expect.arrayContaining([
        "package.json",
        "dist/cli/authsvc-api-conformance.js",
        "dist/cli/conformance.js",
        "dist/conformance/index.js",
        "dist/conformance/index.d.ts",
        "dist/generated/openapi.json",
        "dist/generated/integration.arazzo.json",
      ]),
    );
    for (const key of Object.keys(packageNames) as PackageKey[]) {
      expect(tarballs[key].tarball.endsWith(`-${version}.tgz`)).toBe(true);
      expect(manifest(key).version).toBe(version);
    }
  });

  test("each package holds only its own part: no tests, sources, benchmarks, SQL, or another audience's code", () => {
    const stray = (key: PackageKey, pattern: RegExp) => tarballs[key].files.filter((path) => pattern.test(path));
    for (const key of Object.keys(packageNames) as PackageKey[]) {
      expect(stray(key, /^(?!dist\/|package\.json$|README\.md$)/)).toEqual([]);
      expect(stray(key, /\.sql$|\.test\.js$|(?<!\.d)\.ts$/)).toEqual([]);
    }
    expect(stray("contract", /^dist\/(cli|mock|msw|server|conformance)\//)).toEqual([]);
    // The mock checks the demo credentials with the store's credential table, and no other part of the store.
    expect(stray("mock", /^dist\/(conformance|client|server\/(main|store\/(?!credentials\.)|handlers))/)).toEqual([]);
    // The conformance suite (and with it Redocly CLI) is a development install of its own.
    expect(stray("server", /^dist\/(mock|msw|conformance)\/|^dist\/cli\/conformance|integration\.arazzo/)).toEqual([]);
    expect(stray("conformance", /^dist\/(cli\/(serve|mock|authsvc-api\.)|mock|msw|server\/(contract-layer|middleware|store))/)).toEqual([]);
  });

  // The mock answers through the Express entry's own request layer, so it carries that layer's
  // modules and their dependencies itself (Express and the validator included: it is a
  // command, not a library a host mounts), plus Prism's HTTP package for dynamic answers.
  // Pino, express-rate-limit, cors, content-type (a JSON body's charset) and ipaddr.js
  // (TRUST_PROXY's addresses) run inside the Express entry, over the peers Express and the validator. The contract is a peer of both,
  // at the same version. The conformance package carries Redocly CLI (the Arazzo run), the
  // typed client and Ajv (the answers' schemas): a development install only.
  test("each package declares its own dependencies and peers", () => {
    const declared = (key: PackageKey) => {
      const { dependencies = {}, peerDependencies = {}, peerDependenciesMeta = {}, bin } = manifest(key);
      return { dependencies: Object.keys(dependencies).sort(), peers: peerDependencies, optional: Object.keys(peerDependenciesMeta).sort(), bin };
    };
    expect(declared("contract")).toEqual({ dependencies: ["openapi-fetch"], peers: {}, optional: [], bin: undefined });
    expect(declared("mock")).toEqual({
      dependencies: [
        "@stoplight/prism-http",
        "ajv",
        "ajv-formats",
        "content-type",
        "cors",
        "express",
        "express-openapi-validator",
        "express-rate-limit",
        "fast-deep-equal",
        "ipaddr.js",
        "pino",
      ],
      peers: { [name]: version, msw: "^2.15.0 || ^3.0.5" },
      optional: [name, "msw"],
      bin: { "authsvc-api": "dist/cli/authsvc-api.js" },
    });
    expect(declared("server")).toEqual({
      dependencies: ["ajv", "ajv-formats", "content-type", "cors", "express-rate-limit", "fast-deep-equal", "ipaddr.js", "pino"],
      peers: { [name]: version, "@types/express": "^5.0.0", express: "^5.0.0", "express-openapi-validator": "^5.6.2" },
      optional: [name, "@types/express"],
      bin: { "authsvc-api": "dist/cli/authsvc-api.js" },
    });
    expect(declared("conformance")).toEqual({
      dependencies: ["@redocly/cli", "ajv", "ajv-formats", "openapi-fetch"],
      peers: {},
      optional: [],
      bin: { "authsvc-api-conformance": "dist/cli/authsvc-api-conformance.js" },
    });
  });
});

// npm 11 rewrites a `bin` path it would normalize (`./dist/…`) and drops it at publish, with
// only a warning ("script name … was invalid and removed"): the published package then has no command.
test("npm publish keeps every bin as written (a dry run, no scripts)", async () => {
  const { stderr } = await run(npm, ["publish", "--dry-run", "--ignore-scripts", "--workspaces"], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  expect(stderr).toMatch(/npm notice/);
  expect(stderr.split("\n").filter((line) => /invalid and removed|"bin\[/.test(line))).toEqual([]);
}, 120_000);

describe("the contract package installed alone into a fresh project", () => {
  test("is at most 15 packages and 5 MB in node_modules, none of them Prism, Express, Ajv or pino", () => {
    const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
    const installed = Object.keys(lock.packages).filter((path) => path.startsWith("node_modules/"));
    const bytes = bytesUnder(join(project, "node_modules"));
    console.log(`${name} in a fresh project: ${installed.length} packages, ${(bytes / 1024 / 1024).toFixed(2)} MB in node_modules (${installed.join(", ")})`);
    expect(installed.filter((path) => /node_modules\/(@stoplight\/|express|ajv|pino|msw)/.test(path))).toEqual([]);
    expect(installed.length).toBeLessThanOrEqual(15);
    expect(bytes).toBeLessThanOrEqual(5 * 1024 * 1024);
  });

  test("is what the docs quote: the figures npm run bench:footprint last wrote, the packages exactly and the bytes within 10%", () => {
    const quoted = (JSON.parse(readFileSync(new URL("../../bench/footprint/figures.json", import.meta.url), "utf8")) as Footprint).installs.contract;
    const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
    const rerun = "the docs' figures are stale: rerun npm run bench:footprint";
    expect(Object.keys(lock.packages).filter((path) => path.startsWith("node_modules/")).length, rerun).toBe(quoted.packages);
    const bytes = bytesUnder(join(project, "node_modules"));
    expect(Math.abs(bytes - quoted.bytes) / quoted.bytes, `${bytes} B installed, ${quoted.bytes} B quoted; ${rerun}`).toBeLessThanOrEqual(0.1);
  });

  test("a typed call by the package name type-checks with tsc and runs under node", async () => {
    const compiled = await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project }).catch((error: { stdout: string }) => ({
      stdout: error.stdout,
      failed: true,
    }));
    expect(compiled.stdout).toBe("");

    const { stdout } = await run(process.execPath, [join(project, "out", "consumer.js")], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({
      sent: ["GET http://127.0.0.1:4010/v1/widgets/wgt_5a3c8e1f7b92 Bearer ak_live_acme_4f9e2b7c1d8a6e3f"],
      id: "wgt_5a3c8e1f7b92",
      problem: null,
      refused: expect.stringMatching(/X-Api-Secret.*apiSecret/),
      operations: Object.keys(operations).length,
      sameTable: true,
      title: JSON.parse(readFileSync("generated/openapi.json", "utf8")).info.title,
    });
  }, 180_000);
});
