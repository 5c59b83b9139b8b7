// Target (e): the package's enforcing layer (`createContractApp`, server/express/) with
// trivial handlers and an authenticator that accepts any key, request validation only (no
// rate limits, as (b2) has none):
// the layer's own cost, next to stock Express + express-openapi-validator (b2).
import type { AddressInfo } from "node:net";
import { operations, type OperationId } from "../../generated/operations.js";
import { createContractApp, type Handlers } from "../../server/express/index.js";
import { serveForBench } from "../lib/child.js";
import { widgetBody } from "../lib/fixtures.js";

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
