// The mock as frontend developers use it: every operation under /v1 with its documented
// example, nothing outside /v1, the server's own validation and credential check, and the
// Prefer switches docs/mock.md documents.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations, type OperationId } from "../../generated/operations.js";
import { startMock, type RunningMock } from "../../mock/index.js";
import { clientCalls } from "../../conformance/calls.js";
import { successExample } from "../support/document.js";
import { viaClient, viaFetch } from "../../conformance/http.js";
import type { Target } from "../../conformance/target.js";
import { appA } from "../support/demo.js";

const operationIds = Object.keys(operations) as OperationId[];

describe("mock", () => {
  let mock: RunningMock;
  let target: Target;

  beforeAll(async () => {
    mock = await startMock();
    target = { name: "mock", baseUrl: mock.url, apiKey: appA.apiKey, apiSecret: appA.apiSecret, stateful: false, fixtures: {} };
  });
  afterAll(() => mock?.close());

  it("listens on a free port of 127.0.0.1 and its URL ends in /v1", () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  // Reads answer the documented example; writes the server's answer to what they send (PUT
  // {}, a broadcast), which is the example only for the documented request (writes.test.ts).
  const writes: OperationId[] = ["updateSmsProvider", "createNotification"];
  it.each(operationIds.filter((operationId) => !writes.includes(operationId)))("%s: answers the documented example under /v1", async (operationId) => {
    const observed = await viaClient(target, (api) => clientCalls[operationId](api, target));
    expect(observed.status).toBe(operations[operationId].successStatus);
    // A success without a body (a DELETE's 204) has no example: it answers none.
    if (operations[operationId].responseType === null) expect(observed.text).toBe("");
    else expect(observed.body).toEqual(successExample(operationId));
  });

  it.each(writes)("%s: answers the documented shape under /v1, with the values sent", async (operationId) => {
    const observed = await viaClient(target, (api) => clientCalls[operationId](api, target));
    const example = successExample(operationId) as { type: string; result: Record<string, unknown> };
    expect(observed.status).toBe(200);
    expect(observed.body).toMatchObject({ type: example.type });
    expect(Object.keys((observed.body as { result: object }).result).sort()).toEqual(Object.keys(example.result).sort());
  });

  it("answers 404 for the same path outside /v1", async () => {
    const origin = mock.url.replace(/\/v1$/, "");
    for (const path of ["/widgets/wgt_5a3c8e1f7b92", "/v2/widgets/wgt_5a3c8e1f7b92"]) {
      const response = await fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${appA.apiKey}` } });
      expect(response.status, path).toBe(404);
    }
  });

  it("validates requests as the server does: a 400 problem naming the field", async () => {
    const observed = await viaClient(target, (api) => clientCalls.findWebhooks(api, target, { limit: 101 }));
    expect(observed.status).toBe(400);
    expect(observed.body).toMatchObject({ code: "validation_failed", errors: [{ in: "query", name: "limit" }] });
  });

  it("takes the demo seed's credentials and refuses any other, as the server does", async () => {
    const without = await viaFetch(target, { method: "get", path: "/webhooks", credentials: "none" });
    expect(without.status).toBe(401);
    const unknown = await fetch(`${mock.url}/webhooks`, { headers: { authorization: "Bearer ak_not_a_demo_key" } });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get("www-authenticate")).toBe("Bearer");
    const halfPair = await viaFetch(target, {
      method: "post",
      path: "/notifications",
      credentials: "none",
      headers: { "x-api-key": appA.apiKey },
      body: successExample("createNotification"),
    });
    expect(halfPair.status).toBe(401);
  });

  it("Prefer: code=… answers that documented response", async () => {
    const observed = await viaClient(target, (api) => clientCalls.readWidget(api, target), { Prefer: "code=404" });
    expect(observed.status).toBe(404);
    expect(observed.body).toMatchObject({ code: "not_found" });
  });

  it("Prefer: code=404 and a 401 answer this operation's own problem, not another operation's", async () => {
    const webhook = await viaClient(target, (api) => clientCalls.readWebhook(api, target), { Prefer: "code=404" });
    expect(webhook.status).toBe(404);
    expect(webhook.body).toMatchObject({ code: "not_found", instance: expect.stringMatching(/^\/v1\/webhooks\/[^/]+$/) });
    const pair = await viaFetch(target, {
      method: "post",
      path: "/notifications",
      credentials: "none",
      headers: { "x-api-key": appA.apiKey },
      body: successExample("createNotification"),
    });
    expect(pair.status).toBe(401);
    expect(pair.body).toMatchObject({ instance: "/v1/notifications" });
    expect(JSON.stringify(pair.body)).not.toContain("Bearer");
  });

  it.each(["429", "500", "503"])("Prefer: code=%s answers with this operation's own path in instance", async (code) => {
    for (const [call, path] of [
      [clientCalls.readWidget, /^\/v1\/widgets\/[^/]+$/],
      [clientCalls.findWebhooks, /^\/v1\/webhooks(\?.*)?$/],
      [clientCalls.createNotification, /^\/v1\/notifications$/],
    ] as const) {
      const observed = await viaClient(target, (api) => call(api, target), { Prefer: `code=${code}` });
      expect(observed.status).toBe(Number(code));
      expect((observed.body as { instance: string }).instance).toMatch(path);
    }
  });

  it("Prefer: code=…, example=… picks the named example; an unknown name is a 400 naming Prefer", async () => {
    const conflict = await viaClient(target, (api) => clientCalls.updateSmsProvider(api, target), {
      Prefer: "code=409, example=ConflictProblem",
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ code: "conflict" });
    const unknown = await viaClient(target, (api) => clientCalls.readWidget(api, target), { Prefer: "example=NoSuchExample" });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ errors: [{ in: "header", name: "Prefer" }] });
  });

  it("Prefer: dynamic=true generates data in the envelope instead of the example", async () => {
    const observed = await viaClient(target, (api) => clientCalls.readWidget(api, target), { Prefer: "dynamic=true" });
    expect(observed.status).toBe(200);
    expect(observed.body).toMatchObject({ type: operations.readWidget.responseType });
    expect(observed.body).not.toEqual(successExample("readWidget"));
    expect(observed.body).toMatchObject({ result: { id: "wgt_5a3c8e1f7b92" } });
  });

  it("close() stops it", async () => {
    const second = await startMock();
    await second.close();
    await expect(fetch(`${second.url}/webhooks`)).rejects.toThrow();
  });
});
