// Target (e): the package's enforcing layer (`createContractApp` of
// @authsvc/app-api-server/express) as a service runs it: the built server package
// (BENCH_SERVER_DIST, which bench/run.ts builds, packages/server/dist), not the sources
// through tsx, whose transform adds per-call work (esbuild's `__name` wrappers) that no
// installed service pays. Trivial handlers and an authenticator that accepts any key,
// request validation only (no rate limits, as (b2) has none): the layer's own cost, next to
// stock Express + express-openapi-validator (b2).
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { operations, type OperationId } from "../../generated/operations.js";
import type { Handlers } from "../../server/contract-layer/index.js";
import { serveForBench } from "../lib/child.js";
import { widgetBody } from "../lib/fixtures.js";

const dist = process.env.BENCH_SERVER_DIST ?? fileURLToPath(new URL("../../packages/server/dist", import.meta.url));
const { createContractApp } = (await import(pathToFileURL(join(dist, "server/contract-layer/index.js")).href)) as typeof import("../../server/contract-layer/index.js");
const caller = { applicationId: "app_bench", organizationId: "org_bench" };

await serveForBench(async () => {
  const handlers = Object.fromEntries((Object.keys(operations) as OperationId[]).map((operationId) => [operationId, () => widgetBody])) as unknown as Handlers;
  const app = createContractApp({
    handlers,
    authenticate: { authenticateBearer: async () => caller, authenticateKeyPair: async () => caller },
    validateResponses: false,
    rateLimit: false,
    failedAuthLimit: false,
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
});
