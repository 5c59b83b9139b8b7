// Every call carries an X-Request-Id: a fresh one per call unless the caller gives one, the
// same on the retries of that call, and on the result (`requestId`), on a thrown error and
// on a PageError, so the id a frontend logs is the id the server logged.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApiClient, newRequestId, paginate, PageError, type WithRequestId } from "../../client/index.js";
import { successExample } from "../support/document.js";
import { observingFetch } from "./observe.js";

const baseUrl = "http://api.test/v1";
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const readWidget = { params: { path: { id: "wgt_5a3c8e1f7b92" } } };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("X-Request-Id", () => {
  it("a fresh UUID per call, sent and on the result", async () => {
    const { fetch, requests } = observingFetch(() => Response.json(successExample("readWidget")));
    const api = createApiClient({ baseUrl, apiKey: "ak_test", fetch });
    const first = await api.GET("/widgets/{id}", readWidget);
    const second = await api.GET("/widgets/{id}", readWidget);
    const sent = requests.map((request) => request.headers.get("x-request-id"));
    expect(sent[0]).toMatch(uuid);
    expect(sent[1]).toMatch(uuid);
    expect(sent[0]).not.toBe(sent[1]);
    expect([first.requestId, second.requestId]).toEqual(sent);
  });

  it("the caller's id, per call or for the client, is sent as given", async () => {
    const { fetch, requests } = observingFetch(() => Response.json(successExample("readWidget")));
    const perCall = await createApiClient({ baseUrl, apiKey: "ak_test", fetch }).GET("/widgets/{id}", { ...readWidget, headers: { "x-request-id": "call-1" } });
    const perClient = await createApiClient({ baseUrl, apiKey: "ak_test", fetch, headers: { "X-Request-Id": "client-1" } }).GET("/widgets/{id}", readWidget);
    expect(requests.map((request) => request.headers.get("x-request-id"))).toEqual(["call-1", "client-1"]);
    expect([perCall.requestId, perClient.requestId]).toEqual(["call-1", "client-1"]);
  });

  it("the retries of one call send its id again; an error result carries it", async () => {
    const { fetch, requests } = observingFetch(
      () => new Response('{"code":"service_unavailable"}', { status: 503, headers: { "content-type": "application/problem+json" } }),
    );
    const result = await createApiClient({ baseUrl, apiKey: "ak_test", fetch, retry: { tries: 2, baseDelayMs: 1 } }).GET("/widgets/{id}", readWidget);
    expect(requests).toHaveLength(2);
    expect(result.error).toMatchObject({ code: "service_unavailable" });
    expect(requests.map((request) => request.headers.get("x-request-id"))).toEqual([result.requestId, result.requestId]);
  });

  it("a thrown network error carries the id", async () => {
    const { fetch, requests } = observingFetch(() => {
      throw new TypeError("fetch failed");
    });
    const call = createApiClient({ baseUrl, apiKey: "ak_test", fetch, retry: false }).GET("/widgets/{id}", readWidget);
    const error = await call.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as { requestId?: string }).requestId).toBe(requests[0]!.headers.get("x-request-id"));
  });

  it("a PageError carries the id of the page that failed", async () => {
    const { fetch, requests } = observingFetch(
      () => new Response('{"code":"rate_limited","detail":"slow down"}', { status: 429, headers: { "content-type": "application/problem+json" } }),
    );
    const api = createApiClient({ baseUrl, apiKey: "ak_test", fetch, retry: false });
    const walk = (async () => {
      for await (const _ of paginate(api, "/webhooks")) void _;
    })();
    const error = await walk.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(PageError);
    expect((error as PageError).requestId).toBe(requests[0]!.headers.get("x-request-id"));
    expect((error as PageError).message).toContain((error as PageError).requestId);
  });

  it("a per-call id given as a Headers object or as pairs, in any case, is sent as given with the other headers", async () => {
    const { fetch, requests } = observingFetch(() => Response.json(successExample("readWidget")));
    const api = createApiClient({ baseUrl, apiKey: "ak_test", fetch });
    const headers = new Headers({ "X-Request-Id": "headers-1", "X-Trace": "t" });
    const asHeaders = await api.GET("/widgets/{id}", { ...readWidget, headers });
    const asPairs = await api.GET("/widgets/{id}", {
      ...readWidget,
      headers: [
        ["x-REQUEST-id", "pairs-1"],
        ["X-Trace", "u"],
      ] as [string, string][],
    });
    expect(requests.map((request) => request.headers.get("x-request-id"))).toEqual(["headers-1", "pairs-1"]);
    expect(requests.map((request) => request.headers.get("x-trace"))).toEqual(["t", "u"]);
    expect([asHeaders.requestId, asPairs.requestId]).toEqual(["headers-1", "pairs-1"]);
  });

  it("headers without an id, in each form, get a fresh one; the caller's Headers object is left as it was", async () => {
    const { fetch, requests } = observingFetch(() => Response.json(successExample("readWidget")));
    const api = createApiClient({ baseUrl, apiKey: "ak_test", fetch });
    const headers = new Headers({ "X-Trace": "t" });
    const results = [
      await api.GET("/widgets/{id}", { ...readWidget, headers }),
      await api.GET("/widgets/{id}", { ...readWidget, headers: [["X-Trace", "t"]] as [string, string][] }),
      await api.GET("/widgets/{id}", { ...readWidget, headers: { "X-Trace": "t", "X-Request-Id": null } }),
    ];
    expect([...headers]).toEqual([["x-trace", "t"]]);
    const sent = requests.map((request) => request.headers.get("x-request-id"));
    for (const id of sent) expect(id).toMatch(uuid);
    expect(new Set(sent).size).toBe(3);
    expect(results.map((result) => result.requestId)).toEqual(sent);
    expect(requests.map((request) => request.headers.get("x-trace"))).toEqual(["t", "t", "t"]);
  });

  it("client.request() carries the id like the method calls", async () => {
    const { fetch, requests } = observingFetch(() => Response.json(successExample("readWidget")));
    const api = createApiClient({ baseUrl, apiKey: "ak_test", fetch });
    // request() keeps openapi-fetch's result type, which does not declare `requestId`.
    const call = api.request("get", "/widgets/{id}", { ...readWidget, headers: { "X-Request-Id": "direct-1" } });
    const result = (await call) as Awaited<typeof call> & WithRequestId;
    expect(requests.map((request) => [request.method, request.headers.get("x-request-id")])).toEqual([["GET", "direct-1"]]);
    expect(result.requestId).toBe("direct-1");
    expect(result.data).toEqual(successExample("readWidget"));
  });

  it("every method of the client puts the id it sent on the result", async () => {
    const { fetch, requests } = observingFetch(() => new Response(null, { status: 204 }));
    const api = createApiClient({ baseUrl, apiKey: "ak_test", fetch, retry: false }) as unknown as Record<string, (path: string) => Promise<{ requestId?: string }>>;
    const methods = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH"];
    const results = [];
    for (const method of methods) results.push(await api[method]!("/anything"));
    expect(requests.map((request) => request.method)).toEqual(methods);
    const sent = requests.map((request) => request.headers.get("x-request-id"));
    for (const id of sent) expect(id).toMatch(uuid);
    expect(results.map((result) => result.requestId)).toEqual(sent);
    // Fetch refuses TRACE before sending: the error carries the id the call would have sent.
    await expect(api.TRACE!("/anything")).rejects.toMatchObject({ requestId: expect.stringMatching(uuid) });
    expect(requests).toHaveLength(methods.length);
  });

  it("an error that cannot take the id (frozen) is rethrown as it is", async () => {
    const frozen = Object.freeze(new TypeError("fetch failed"));
    const call = createApiClient({ baseUrl, apiKey: "ak_test", fetch: () => Promise.reject(frozen), retry: false }).GET("/widgets/{id}", readWidget);
    const error = await call.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBe(frozen);
    expect(Object.hasOwn(frozen, "requestId")).toBe(false);
  });

  it("without crypto.randomUUID (a page served over plain http), still a version 4 UUID", () => {
    const real = globalThis.crypto;
    vi.stubGlobal("crypto", { getRandomValues: (bytes: Uint8Array) => real.getRandomValues(bytes) });
    const ids = new Set(Array.from({ length: 50 }, () => newRequestId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(uuid);
  });
});
