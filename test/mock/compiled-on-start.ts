// Run by main.test.ts in a fresh process (the validators are built once per process, so a
// test sharing its worker with another mock would find them built already): starts the mock,
// sends every operation its valid request, and prints how many validators were built (served
// precompiled or compiled) by the time startMock resolved and after those requests.
import { operations, type OperationId } from "../../generated/operations.js";
import { startMock } from "../../mock/index.js";
import { precompiledStats } from "../../server/contract-layer/precompiled.js";
import { appA } from "../support/demo.js";
import { credentialsFor, validRequest } from "../support/requests.js";

const built = () => precompiledStats.hits + precompiledStats.misses;
const mock = await startMock();
const atStart = built();
const statuses: Record<string, number> = {};
for (const operationId of Object.keys(operations) as OperationId[]) {
  const request = validRequest(operationId);
  const response = await fetch(`${mock.url}${request.path}`, {
    method: request.method,
    headers: { ...credentialsFor(operationId, appA), ...(request.body === undefined ? {} : { "content-type": "application/json" }) },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  statuses[operationId] = response.status;
  await response.arrayBuffer();
}
console.log(JSON.stringify({ atStart, afterRequests: built(), statuses }));
await mock.close();
