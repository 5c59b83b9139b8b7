// A deliberately broken implementation, to prove the suite fails and says why: it answers
// every operation with its documented example but never asks for credentials, names the
// widget's envelope with the wrong `type`, and drops `url` from the webhook it reads.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { operations, type OperationId } from "../../generated/operations.js";
import { successExample } from "../support/document.js";

/** The breakages, so the test can assert that the report names each one. */
export const breakages = {
  wrongType: { operationId: "readWidget", type: "api.application.widget.get" },
  missingField: { operationId: "readWebhook", field: "url" },
} as const;

function answerFor(operationId: OperationId): unknown {
  const body = successExample(operationId) as { type: string; result: Record<string, unknown> };
  if (operationId === breakages.wrongType.operationId) body.type = breakages.wrongType.type;
  if (operationId === breakages.missingField.operationId) delete body.result[breakages.missingField.field];
  return body;
}

const routes = (Object.keys(operations) as OperationId[]).map((operationId) => {
  const { method, path } = operations[operationId];
  const pattern = new RegExp(`^/v1${path.replace("{id}", "[^/]+")}$`);
  return { method: method.toUpperCase(), pattern, operationId };
});

/** The operation a request of a double under `/v1` names, if any. */
export function routeOf(method: string | undefined, url: string | undefined): OperationId | undefined {
  const path = new URL(url ?? "/", "http://double").pathname;
  return routes.find((r) => r.method === method && r.pattern.test(path))?.operationId;
}

/** Starts the broken double on a free port; its URL ends in /v1 like the real ones. */
export async function startBrokenTarget(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const operationId = routeOf(request.method, request.url);
    request.resume();
    if (!operationId) {
      response.writeHead(404, { "content-type": "application/problem+json" }).end("{}");
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answerFor(operationId)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
