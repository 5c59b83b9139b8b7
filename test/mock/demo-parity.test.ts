// Swapping the base URL from mock to server changes nothing for a frontend: every read
// answers the same records (ids and values) on both, because the document's examples the
// mock serves are the records of the server's demo seed. Writes answer the same record ids.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations, type OperationId } from "../../generated/operations.js";
import { startMock, type RunningMock } from "../../mock/index.js";
import { startServer, type RunningServer } from "../support/server.js";
import { clientCalls } from "../../conformance/calls.js";
import { appA } from "../support/demo.js";
import { successExample } from "../support/document.js";
import { viaClient, type Observed } from "../../conformance/http.js";
import type { Target } from "../../conformance/target.js";

const operationIds = Object.keys(operations) as OperationId[];
const reads = operationIds.filter((id) => operations[id].method === "get");
// Writes whose record is a demo record (a new notification gets a new id on the server).
const writesOfDemoRecords: OperationId[] = ["updateSmsProvider", "saveEmailTransport"];

describe("mock and server answer the same demo records", () => {
  let mock: RunningMock;
  let server: RunningServer;
  let onMock: Target;
  let onServer: Target;

  beforeAll(async () => {
    [mock, server] = await Promise.all([startMock(), startServer({ rateLimit: false })]);
    const a = { apiKey: appA.apiKey, apiSecret: appA.apiSecret };
    onMock = { name: "mock", baseUrl: mock.url, ...a, stateful: false, fixtures: {} };
    onServer = { name: "server", baseUrl: server.url, ...a, stateful: true, fixtures: {} };
  });
  afterAll(async () => {
    await Promise.all([mock?.close(), server?.close()]);
  });

  const both = (operationId: OperationId): Promise<Observed[]> =>
    Promise.all([onMock, onServer].map((target) => viaClient(target, (api) => clientCalls[operationId](api, target))));

  it.each(reads)("%s: the same body", async (operationId) => {
    const [fromMock, fromServer] = await both(operationId);
    expect(fromMock!.status).toBe(200);
    expect(fromServer!.status).toBe(200);
    expect(fromServer!.body).toEqual(fromMock!.body);
  });

  // The mock refuses undeclared query parameters with the server's own layer.
  const observe = async (base: string, path: string, init: RequestInit, headers: Record<string, string>) => {
    const response = await fetch(`${base}${path}`, { ...init, headers });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const bearer = { authorization: `Bearer ${appA.apiKey}` };
  const keyPair = { "x-api-key": appA.apiKey, "x-api-secret": appA.apiSecret, "content-type": "application/json" };
  it.each([
    ["a GET with two unknown parameters", "/widgets/wgt_5a3c8e1f7b92?unknown=1&x=2", {}, bearer],
    ["a list with a misspelt page", "/webhooks?limit=20&pgae=2", {}, bearer],
    ["a POST with an unknown parameter", "/notifications?dry_run=1", { method: "POST", body: JSON.stringify(successExample("createNotification")) }, keyPair],
  ] as const)("%s: 400 and the same problem", async (_name, path, init, headers) => {
    const [fromMock, fromServer] = await Promise.all([mock.url, server.url].map((base) => observe(base, path, init, headers)));
    expect(fromServer!.status).toBe(400);
    expect(fromMock!.status).toBe(400);
    expect(fromMock!.body).toEqual(fromServer!.body);
  });

  // Not a refusal of the parameters: the status is the same, the bodies are each side's own
  // (the mock's example, the server's record; a 401 before the parameters are looked at).
  it.each([
    ["an unknown parameter without credentials", "/widgets/wgt_5a3c8e1f7b92?unknown=1", {}, {}, 401],
    ["only declared parameters", "/webhooks?limit=20&page=1", {}, bearer, 200],
  ] as const)("%s: the same status", async (_name, path, init, headers, status) => {
    const [fromMock, fromServer] = await Promise.all([mock.url, server.url].map((base) => observe(base, path, init, headers)));
    expect(fromServer!.status).toBe(status);
    expect(fromMock!.status).toBe(status);
  });

  it("still takes Prism's own switches in the query string (__code, __example, __dynamic)", async () => {
    const response = await fetch(`${mock.url}/widgets/wgt_5a3c8e1f7b92?__code=404`, { headers: bearer });
    expect(response.status).toBe(404);
    const dynamic = await fetch(`${mock.url}/webhooks?limit=20&__dynamic=true`, { headers: bearer });
    expect(dynamic.status).toBe(200);
  });

  it.each(writesOfDemoRecords)("%s: the same record id", async (operationId) => {
    const [fromMock, fromServer] = await both(operationId);
    const idOf = (o: Observed) => (o.body as { result?: { id?: string } }).result?.id;
    expect(idOf(fromMock!)).toBeDefined();
    expect(idOf(fromServer!)).toBe(idOf(fromMock!));
  });
});
