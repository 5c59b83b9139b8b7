// Swapping the base URL from mock to server changes nothing for a frontend: every read
// answers the same records (ids and values) on both, because the document's examples the
// mock serves are the records of the server's demo seed. Writes answer the same record ids.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations, type OperationId } from "../../generated/operations.js";
import { startMock, type RunningMock } from "../../mock/index.js";
import { startServer, type RunningServer } from "../../server/listen.js";
import { clientCalls } from "../../conformance/calls.js";
import { appA } from "../support/demo.js";
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

  it.each(writesOfDemoRecords)("%s: the same record id", async (operationId) => {
    const [fromMock, fromServer] = await both(operationId);
    const idOf = (o: Observed) => (o.body as { result?: { id?: string } }).result?.id;
    expect(idOf(fromMock!)).toBeDefined();
    expect(idOf(fromServer!)).toBe(idOf(fromMock!));
  });
});
