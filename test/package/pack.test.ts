// The package as a consumer gets it: `npm pack` (prepack builds dist/), the tarball's file
// list, an install into an empty project, a consumer file that imports the client and the
// types by the package name and makes a typed call, type-checked by the repo's tsc and then
// run by node, so both the `types` and the ESM `default` entries of `exports` must resolve.
import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { operations } from "../../generated/operations.js";
import { consumerProject, pack, run, type Packed } from "./pack.js";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const name = "@authsvc/app-api-contract";

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

let dir: string;
let packed: Packed["tarball"];

beforeAll(async () => {
  const result = await pack("contract-pack-");
  dir = result.dir;
  packed = result.tarball;
  await consumerProject(result, "consumer", { "tsconfig.json": JSON.stringify(tsconfig), "consumer.ts": consumer });
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("npm pack", () => {
  test("contains what a consumer needs", () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "CHANGELOG.md",
        "dist/client/index.js",
        "dist/client/index.d.ts",
        "dist/client/api-client.d.ts",
        "dist/generated/operations.js",
        "dist/generated/operations.d.ts",
        "dist/generated/schema.d.ts",
        "dist/conformance/index.js",
        "dist/cli/conformance.js",
        "dist/cli/mock.js",
        "dist/cli/serve.js",
        "dist/mock/index.js",
        "dist/msw/index.js",
        "dist/generated/examples.js",
        "dist/server/main.js",
        "dist/server/seed/demo.json",
        "dist/server/express/index.js",
        "dist/server/express/index.d.ts",
        "generated/openapi.json",
      ]),
    );
    // The types and the operations table ship once, compiled under dist/generated/.
    expect(files.filter((path) => path.startsWith("generated/"))).toEqual(["generated/openapi.json"]);
  });

  test("contains nothing from tests, the server, the mock, benchmarks or the sources", () => {
    const stray = packed.files
      .map((f) => f.path)
      .filter((path) => /^(test|server|mock|bench|openapi|scripts|client|dist\/docs)\//.test(path));
    // dist/server holds the Express entry and the reference server `authsvc-api serve` runs
    // (in memory): never its PostgreSQL migrations runner's SQL files or test code.
    const server = packed.files.map((f) => f.path).filter((path) => /^dist\/server\/.*\.(sql|test\.js)$/.test(path));
    expect(stray).toEqual([]);
    expect(server).toEqual([]);
  });
});

describe("installed into a consumer project", () => {
  // Ajv validates the answers of `authsvc-api conformance` against the document; pino,
  // express-rate-limit, cors and content-type (a JSON body's charset) run inside the Express
  // entry, over the peers Express and the validator.
  test("its direct dependencies are the declared runtime ones, Express and the validator as peers", () => {
    const lock = JSON.parse(readFileSync(join(dir, "consumer", "package-lock.json"), "utf8"));
    const installed = lock.packages[`node_modules/${name}`];
    // Prism runs `authsvc-api mock`; MSW is an optional peer, for the `/msw` entry only.
    expect(Object.keys(installed.dependencies).sort()).toEqual(
      ["@stoplight/prism-core", "@stoplight/prism-http", "@stoplight/prism-http-server", "ajv", "ajv-formats", "content-type", "cors", "express-rate-limit", "openapi-fetch", "pino"].sort(),
    );
    expect(Object.keys(installed.peerDependencies).sort()).toEqual(["@types/express", "express", "express-openapi-validator", "msw"]);
    expect(installed.peerDependenciesMeta).toEqual({ "@types/express": { optional: true }, msw: { optional: true } });
    expect(installed.bin).toEqual({ "authsvc-api": "dist/cli/authsvc-api.js" });
    // npm installs the required peers with the package.
    expect(lock.packages["node_modules/express"]).toBeDefined();
    expect(lock.packages["node_modules/express-openapi-validator"]).toBeDefined();
  });

  test("a typed call by the package name type-checks with tsc and runs under node", async () => {
    const project = join(dir, "consumer");
    const compiled = await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout, failed: true }),
    );
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
  }, 60_000);
});
