// The child of bench/serverless-cold.ts: one AWS Lambda cold start, plain JavaScript run by
// `node` as the platform runs a function. COLD_MODE picks the function, COLD_SPEC names a
// JSON file with the built server package's directory, each operation's success answer and
// the API Gateway event of the first invoke. It times, from its first line: the imports,
// building the app, `ready()` (together the function's init), the first invoke, and a
// second (warm) one; prints them as one JSON line.
//   bare                  Express with the one widget route, through serverless-http (the baseline)
//   serverless-http       docs/backend.md's recipe: createContractApp, await ready(), serverless-http
//   serverless-express    the same through @codegenie/serverless-express
//   imports               what the serverless-http recipe loads, one package after another, each
//                         timed (what is already loaded is not loaded again): marks per package
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const started = performance.now();
const mode = process.env.COLD_MODE;
const spec = JSON.parse(readFileSync(process.env.COLD_SPEC, "utf8"));
const marks = {};
const mark = (name) => (marks[name] = performance.now() - started);

let handler;
if (mode === "imports") {
  const { createRequire } = await import("node:module");
  const require = createRequire(import.meta.url);
  for (const name of ["express", "serverless-http", "express-openapi-validator", "pino", "express-rate-limit"]) {
    await import(name);
    mark(name);
  }
  const entry = await import(`${spec.packageDir}/server/contract-layer/index.js`);
  mark("the entry's own modules");
  require(`${spec.packageDir}/generated/validators.cjs`);
  mark("the precompiled validators (generated/validators.cjs)");
  const api = entry.createContractApp({
    handlers: Object.fromEntries(spec.operations.map(({ operationId, body }) => [operationId, () => structuredClone(body)])),
    authenticate: { authenticateBearer: async () => undefined, authenticateKeyPair: async () => undefined },
  });
  mark("createContractApp (reads the document)");
  await entry.ready(api);
  mark("ready() with the validators loaded");
  console.log(JSON.stringify({ mode, startedAt: started, marks }));
  process.exit(0);
} else if (mode === "bare") {
  const [{ default: express }, { default: serverless }] = await Promise.all([import("express"), import("serverless-http")]);
  mark("import");
  const app = express();
  app.disable("x-powered-by");
  const widget = spec.operations.find((operation) => operation.operationId === "readWidget").body;
  app.get("/v1/widgets/:id", (_req, res) => res.json(widget));
  handler = serverless(app);
  mark("app");
  mark("ready");
} else {
  const adapter = mode === "serverless-http" ? (await import("serverless-http")).default : (await import("@codegenie/serverless-express")).configure;
  mark("adapter");
  const entry = await import(`${spec.packageDir}/server/contract-layer/index.js`);
  mark("import");
  const caller = { applicationId: "app_bench", organizationId: "org_bench" };
  const handlers = Object.fromEntries(
    spec.operations.map(({ operationId, status, body }) => [operationId, () => (status === 200 ? structuredClone(body) : { status, body: structuredClone(body) })]),
  );
  const api = entry.createContractApp({
    handlers,
    authenticate: { authenticateBearer: async () => caller, authenticateKeyPair: async () => caller },
    unmatched: "problem",
  });
  mark("app");
  await entry.ready(api);
  mark("ready");
  handler = mode === "serverless-http" ? adapter(api) : adapter({ app: api });
}
const context = { awsRequestId: "cold", getRemainingTimeInMillis: () => 30_000 };
const first = await handler(structuredClone(spec.event), context);
mark("first");
const warm = performance.now();
const second = await handler(structuredClone(spec.event), context);
const warmMs = performance.now() - warm;
console.log(JSON.stringify({ mode, startedAt: started, marks, warmMs, statuses: [first.statusCode, second.statusCode] }));
