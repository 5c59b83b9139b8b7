// The MSW handlers say what the document says and answer what the mock answers: every
// documented answer of every operation (status, content type, required headers, body)
// conforms to the document; reads echo the path's id; lists page; writes run the server's
// rules; a test can pick another answer or replace a handler; preflights are answered as the
// mock answers them. Runs under MSW 3 and again under MSW 2 (the msw2 project of
// test/vitest.config.ts). What the handlers answer, request by request, against `npx
// authsvc-api mock` itself: test/package/consumer/test/parity.test.ts.
import { build } from "esbuild";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { clientCalls, rawRequest } from "../../conformance/calls.js";
import { viaClient, viaFetch } from "../../conformance/http.js";
import type { Target } from "../../conformance/target.js";
import { operations, type OperationId } from "../../generated/operations.js";
import { answer, createHandlers, documentedResponse, examples, override, responseExamples, type ExampleName } from "../../msw/index.js";
import { corsAllowedHeaders } from "../../server/middleware/layer-headers.js";
import { corsExposedHeaders } from "../../server/middleware/cors.js";
import { check, deref, doc, exampleBody, operation, responseViolations, successExample } from "../support/document.js";

const baseUrl = "http://api.msw.test/v1";
const target: Target = { name: "msw", baseUrl, apiKey: "ak_any", apiSecret: "as_any", stateful: false, fixtures: {} };
const server = setupServer(...createHandlers({ baseUrl }));
const operationIds = Object.keys(operations) as OperationId[];

// MSW 3 renamed `onUnhandledRequest` to `onUnhandledFrame`; this file runs under both, and
// each reads its own name (a variable, not a literal: each major's type has only its own).
const strict = { onUnhandledRequest: "error", onUnhandledFrame: "error" } as const;
beforeAll(() => server.listen(strict));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Every documented answer: operation, status, example name. */
const answers = operationIds.flatMap((operationId) =>
  Object.entries<{ examples: readonly ExampleName[] }>(responseExamples[operationId]).flatMap(([status, documented]) =>
    documented.examples.map((example) => [operationId, Number(status), example] as const),
  ),
);

/** The methods the document serves, each once: what a preflight of any path allows. */
const documentedMethods = [...new Set(operationIds.map((operationId) => operations[operationId].method.toUpperCase()))].sort();

describe("MSW handlers", () => {
  it(`run under MSW ${process.env.MSW_MAJOR ?? "3"} (the msw2 project sets MSW_MAJOR=2 and maps msw to it)`, async () => {
    // MSW 3 dropped the `onUnhandledRequest` export (now `onUnhandledFrame`).
    const msw = await import("msw");
    expect("onUnhandledRequest" in msw ? "2" : "3").toBe(process.env.MSW_MAJOR ?? "3");
  });

  it.each(operationIds)("%s: answers its documented success, conforming to the document", async (operationId) => {
    const observed = await viaClient(target, (api) => clientCalls[operationId](api, target));
    expect(observed.status).toBe(operations[operationId].successStatus);
    // A success without a body (a DELETE's 204) has no schema to hold a body to: it answers none.
    if (operations[operationId].responseType === null) return expect(observed.text).toBe("");
    expect(responseViolations(operationId, observed.status, observed.contentType ?? null, observed.body, observed.headers)).toEqual([]);
    // A read answers the documented example; a write the server's answer to what it sent (below).
    if (operations[operationId].method === "get") expect(observed.body).toEqual(successExample(operationId));
  });

  it("echoes the client's X-Request-Id, as the server and the mock do, and sends one when none came", async () => {
    const { createApiClient } = await import("../../client/index.js");
    const api = createApiClient({ baseUrl, apiKey: "ak_any" });
    const result = await api.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } });
    expect(result.response.headers.get("x-request-id")).toBe(result.requestId);
    const bare = await fetch(`${baseUrl}/widgets/wgt_5a3c8e1f7b92`);
    expect(bare.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("covers every status and example the document gives each operation", () => {
    for (const operationId of operationIds) {
      const documented = Object.keys(operation(operationId).responses).sort();
      expect(Object.keys(responseExamples[operationId]).sort(), operationId).toEqual(documented);
    }
    expect(answers.length).toBeGreaterThan(operationIds.length * 5);
  });

  it.each(answers)("%s %i %s: answer() gives it, conforming to the document", async (operationId, status, example) => {
    server.use(answer(operationId, baseUrl, { status, example } as never));
    const sent = rawRequest(operationId, target);
    const observed = await viaFetch(target, sent);
    expect(observed.status).toBe(status);
    expect(responseViolations(operationId, status, observed.contentType ?? null, observed.body, observed.headers)).toEqual([]);
    const documented = examples[example] as { code?: string; type?: string };
    // A problem is the mock's for this request (its own path as `instance`); a success the example.
    if (status >= 400) expect(observed.body).toMatchObject({ code: documented.code, status, instance: `/v1${sent.path}` });
    else if (!operations[operationId].hasBody) expect(observed.body).toEqual(documented);
    else expect(observed.body).toMatchObject({ type: documented.type });
  });

  it("a read answers the id asked for, as the mock does: GET /widgets/wgt_other is wgt_other", async () => {
    const observed = await viaClient(target, (api) => clientCalls.readWidget(api, target, { id: "wgt_other" }));
    expect(observed.body).toEqual({ ...examples.WidgetRead, result: { ...examples.WidgetRead.result, id: "wgt_other" } });
  });

  it("a documented problem names the id asked for and the request's path", async () => {
    const observed = await viaFetch(target, { method: "GET", path: "/webhooks/whk_aaaaaaaaaaaa", credentials: "bearer", headers: { Prefer: "code=404" } });
    expect(observed.body).toMatchObject({ code: "not_found", detail: "Webhook whk_aaaaaaaaaaaa was not found.", instance: "/v1/webhooks/whk_aaaaaaaaaaaa" });
  });

  it("choose picks another documented answer for one operation, the others keep theirs; a request's Prefer still wins", async () => {
    server.use(...createHandlers({ baseUrl, choose: { readWebhook: { status: 404 } } }));
    const missing = await viaClient(target, (api) => clientCalls.readWebhook(api, target));
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "not_found", detail: "Webhook whk_3a7f1c9e5b2d was not found." });
    expect((await viaClient(target, (api) => clientCalls.readWebhook(api, target), { Prefer: "code=200" })).status).toBe(200);
    expect((await viaClient(target, (api) => clientCalls.readWidget(api, target))).status).toBe(200);
  });

  it("a request's Prefer header picks the status and example, as on the mock", async () => {
    const observed = await viaClient(target, (api) => clientCalls.updateSmsProvider(api, target), {
      Prefer: "code=409, example=ConflictProblem",
    });
    expect(observed.status).toBe(409);
    // The example's detail, naming the provider asked for.
    expect(observed.body).toMatchObject({ code: "conflict", detail: examples.ConflictProblem.detail.replace("sms_2c7e9b4f1a6d", "sms_9e4a1d7c3b2f") });
  });

  it.each([
    ["code=418", /code=418 is not a documented status of readWidget/],
    ["code=abc", /code="abc" is not an HTTP status/],
    ["code=4040", /code="4040" is not an HTTP status/],
    ["example=../../etc/passwd", /example="\.\.\/\.\.\/etc\/passwd" is not an example name/],
    ["code=404, example=ConflictProblem", /example=ConflictProblem is not an example of readWidget 404/],
  ])("Prefer: %s, which the document does not hold, is the mock's 400 problem naming Prefer", async (prefer, message) => {
    const unknown = await viaClient(target, (api) => clientCalls.readWidget(api, target), { Prefer: prefer });
    expect(unknown.status).toBe(400);
    expect(unknown.contentType).toBe("application/problem+json; charset=utf-8");
    expect(unknown.body).toMatchObject({ code: "validation_failed", errors: [{ in: "header", name: "Prefer", message: expect.stringMatching(message) }] });
    expect(check(deref(operation("readWidget").responses["400"]).content["application/problem+json"].schema, unknown.body)).toEqual({ valid: true, errors: "" });
  });

  it("Prefer: xcode=404 is another preference: the default answer", async () => {
    const observed = await viaClient(target, (api) => clientCalls.readWidget(api, target), { Prefer: "xcode=404" });
    expect(observed.status).toBe(200);
  });

  it("a write answers what the server answers that request on the demo data: its rules run", async () => {
    const put = await viaFetch(target, {
      method: "PUT",
      path: "/sms/providers/sms_9e4a1d7c3b2f",
      credentials: "bearer",
      body: { is_active: false, name: "Paused", countries: ["DE"], sort: "UP" },
    });
    // `sort: "UP"` moves the second provider first, as on the server.
    expect(put.body).toMatchObject({ result: { id: "sms_9e4a1d7c3b2f", is_active: false, name: "Paused", countries: ["DE"], sort: 1 } });
    const conflict = await viaFetch(target, { method: "PUT", path: "/sms/providers/sms_2c7e9b4f1a6d", credentials: "bearer", body: { is_default: false } });
    expect(conflict.status).toBe(409);
    const email = await viaFetch(target, {
      ...rawRequest("saveEmailTransport", target),
      body: { ...(exampleBody("saveEmailTransport") as object), email_from: "other@news.example" },
    });
    expect(email.body).toMatchObject({ result: { email_from: "other@news.example", domain: "news.example", auth: examples.EmailSave.result.auth } });
    for (const [operationId, observed] of [
      ["updateSmsProvider", put],
      ["saveEmailTransport", email],
    ] as const) {
      expect(responseViolations(operationId, 200, observed.contentType ?? null, observed.body, observed.headers)).toEqual([]);
    }
  });

  it("with pages, a list spans that many pages at the limit asked, each record with an id of its own", async () => {
    server.use(...createHandlers({ baseUrl, pages: 3 }));
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const observed = await viaFetch(target, { method: "GET", path: `/webhooks?limit=10&page=${page}`, credentials: "bearer" });
      const body = observed.body as { result: { id: string }[]; meta: unknown };
      expect(body.meta).toEqual({ total_count: 21, page_count: 3, current_count: page === 3 ? 1 : 10, current_page: page });
      expect(responseViolations("findWebhooks", 200, observed.contentType ?? null, body, observed.headers)).toEqual([]);
      seen.push(...body.result.map((record) => record.id));
    }
    expect(new Set(seen).size).toBe(21);
    expect(seen.slice(0, 2)).toEqual(examples.WebhookFind.result.map((record) => record.id));
  });

  it("without pages, a page past the documented records is empty with the real totals, as the server's", async () => {
    const observed = await viaFetch(target, { method: "GET", path: "/webhooks?page=2", credentials: "bearer" });
    expect(observed.body).toMatchObject({ result: [], meta: { total_count: 2, page_count: 1, current_count: 0, current_page: 2 } });
  });

  it("Prefer: dynamic=true generates data in the envelope, the path's id kept", { timeout: 60_000 }, async () => {
    const observed = await viaFetch(target, { method: "GET", path: "/webhooks/whk_generated01", credentials: "bearer", headers: { Prefer: "dynamic=true" } });
    expect(observed.status).toBe(200);
    // Random within the schema but for its timestamps' milliseconds (docs/mock.md), as on the mock.
    expect(observed.body).toMatchObject({ type: examples.WebhookRead.type, result: { id: "whk_generated01", event: expect.any(String) } });
    expect(observed.body).not.toEqual(examples.WebhookRead);
  });

  it("a 429's RateLimit agrees with it: no quota left, reset when Retry-After says", async () => {
    const observed = await viaFetch(target, { ...rawRequest("findWebhooks", target), headers: { Prefer: "code=429" } });
    expect(observed.status).toBe(429);
    expect(observed.headers.get("ratelimit")).toBe(`"default";r=0;t=${observed.headers.get("retry-after")}`);
  });

  it("answers a CORS preflight of every path as the mock does, and every answer allows any origin", async () => {
    for (const path of ["/widgets/wgt_5a3c8e1f7b92", "/webhooks", "/notifications", "/sms/providers/sms_9e4a1d7c3b2f"]) {
      const preflight = await fetch(`${baseUrl}${path}`, {
        method: "OPTIONS",
        headers: { Origin: "http://localhost:5173", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization,x-request-id" },
      });
      expect(preflight.status, path).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
      expect(preflight.headers.get("access-control-allow-headers")?.split(",")).toEqual(corsAllowedHeaders);
      expect(preflight.headers.get("access-control-allow-methods")?.split(",").sort()).toEqual(documentedMethods);
    }
    const observed = await viaClient(target, (api) => clientCalls.readWidget(api, target));
    expect(observed.headers.get("access-control-allow-origin")).toBe("*");
    // The same list the mock's cors middleware reads from the document.
    expect(observed.headers.get("access-control-expose-headers")?.split(",")).toEqual(corsExposedHeaders(doc));
  });

  it("frames every body by its length; an overriding resolver's stream of unknown length is sent chunked", async () => {
    const widget = await fetch(`${baseUrl}/widgets/wgt_5a3c8e1f7b92`);
    expect(Number(widget.headers.get("content-length"))).toBe(new TextEncoder().encode(await widget.text()).byteLength);
    server.use(
      override("readWidget", baseUrl, () => new Response(new ReadableStream({ start: (c) => c.close() }), { headers: { "Content-Type": "application/json" } }) as never),
    );
    const streamed = await fetch(`${baseUrl}/widgets/wgt_5a3c8e1f7b92`);
    // Under MSW 3 the framing reaches the client (it parses the mocked socket's bytes); MSW 2's fetch interceptor hands the Response over as it is.
    expect(streamed.headers.get("transfer-encoding") ?? "chunked").toBe("chunked");
    expect(streamed.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("override replaces one handler with a typed resolver; resetHandlers goes back", async () => {
    server.use(
      override("readWidget", baseUrl, ({ params }) =>
        HttpResponse.json({ ...examples.WidgetRead, result: { ...examples.WidgetRead.result, id: params.id, name: "Overridden" } }),
      ),
    );
    const overridden = await viaClient(target, (api) => clientCalls.readWidget(api, target, { id: "wgt_other" }));
    expect(overridden.body).toMatchObject({ result: { id: "wgt_other", name: "Overridden" } });
    server.resetHandlers();
    const back = await viaClient(target, (api) => clientCalls.readWidget(api, target, { id: "wgt_other" }));
    expect(back.body).toMatchObject({ result: { id: "wgt_other", name: examples.WidgetRead.result.name } });
  });

  it("refuses an answer the document does not give", () => {
    expect(() => documentedResponse("findWebhooks", { status: 404 as never })).toThrow(/findWebhooks documents no 404/);
    expect(() => documentedResponse("readWidget", { status: 404, example: "ConflictProblem" as never })).toThrow(/no example ConflictProblem/);
  });

  it("answers a copy: changing a response body does not change the examples", async () => {
    const before = structuredClone(examples.WebhookFind);
    const body = (await documentedResponse("findWebhooks").json()) as { result: unknown[] };
    body.result.length = 0;
    expect(examples.WebhookFind).toEqual(before);
  });

  it("bundles for a browser: no Node API in the handlers (Prism's generator is loaded only when asked for)", async () => {
    const result = await build({
      entryPoints: [new URL("../../msw/index.ts", import.meta.url).pathname],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
      external: ["msw"],
      metafile: true,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => /node_modules\/(express|@stoplight|ajv|pino)\//.test(input))).toEqual([]);
    expect(inputs.some((input) => input.endsWith("mock/answer.ts"))).toBe(true);
  });
});
