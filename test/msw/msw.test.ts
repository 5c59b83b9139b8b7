// The MSW handlers say what the document says: every documented answer of every operation
// (status, content type, headers, body) validates against the document, the default is the
// success example the mock serves, and a test can pick another answer or replace a handler.
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { clientCalls, rawRequest } from "../../conformance/calls.js";
import { viaClient, viaFetch } from "../../conformance/http.js";
import type { Target } from "../../conformance/target.js";
import { operations, type OperationId } from "../../generated/operations.js";
import { answer, createHandlers, documentedResponse, examples, override, responseExamples, type ExampleName } from "../../msw/index.js";
import { check, deref, exampleBody, operation, successExample } from "../support/document.js";

const baseUrl = "http://api.msw.test/v1";
const target: Target = { name: "msw", baseUrl, apiKey: "ak_any", apiSecret: "as_any", stateful: false, fixtures: {} };
const server = setupServer(...createHandlers({ baseUrl }));
const operationIds = Object.keys(operations) as OperationId[];

// MSW 3 renamed `onUnhandledRequest` to `onUnhandledFrame`; this file runs under both (the
// `msw3` project of test/vitest.config.ts), and each reads its own name.
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

describe("MSW handlers", () => {
  it(`run under MSW ${process.env.MSW_MAJOR ?? "2"} (the msw3 project sets MSW_MAJOR=3 and maps msw to it)`, async () => {
    // MSW 3 dropped the `onUnhandledRequest` export (now `onUnhandledFrame`).
    const msw = await import("msw");
    expect("onUnhandledRequest" in msw ? "2" : "3").toBe(process.env.MSW_MAJOR ?? "2");
  });

  it.each(operationIds)("%s: answers the documented success example through the client", async (operationId) => {
    const observed = await viaClient(target, (api) => clientCalls[operationId](api, target));
    expect(observed.status).toBe(operations[operationId].successStatus);
    // A success without a body (a DELETE's 204) has no example: it answers none.
    if (operations[operationId].responseType === null) expect(observed.text).toBe("");
    else expect(observed.body).toEqual(successExample(operationId));
  });

  it("echoes the client's X-Request-Id, as the server and the mock do", async () => {
    const { createApiClient } = await import("../../client/index.js");
    const api = createApiClient({ baseUrl, apiKey: "ak_any" });
    const result = await api.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } });
    expect(result.response.headers.get("x-request-id")).toBe(result.requestId);
  });

  it("covers every status and example the document gives each operation", () => {
    for (const operationId of operationIds) {
      const documented = Object.keys(operation(operationId).responses).sort();
      expect(Object.keys(responseExamples[operationId]).sort(), operationId).toEqual(documented);
    }
    expect(answers.length).toBeGreaterThan(operationIds.length * 5);
  });

  it.each(answers)("%s %i %s validates against the document", async (operationId, status, example) => {
    server.use(answer(operationId, baseUrl, { status, example } as never));
    const observed = await viaFetch(target, rawRequest(operationId, target));

    const response = deref(operation(operationId).responses[String(status)]);
    expect(observed.status).toBe(status);
    const [contentType, media] = Object.entries<{ schema: unknown }>(response.content)[0]!;
    expect(observed.contentType).toBe(contentType);
    expect(check(media.schema, observed.body)).toEqual({ valid: true, errors: "" });
    expect(observed.body).toEqual(examples[example]);
    for (const header of Object.keys(response.headers ?? {})) expect(observed.headers.get(header), header).not.toBeNull();
  });

  it("choose picks another documented answer for one operation, the others keep theirs", async () => {
    server.use(...createHandlers({ baseUrl, choose: { readWebhook: { status: 404 } } }));
    const missing = await viaClient(target, (api) => clientCalls.readWebhook(api, target));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(examples.ReadWebhookNotFoundProblem);
    const widget = await viaClient(target, (api) => clientCalls.readWidget(api, target));
    expect(widget.status).toBe(200);
  });

  it("a request's Prefer header picks the status and example, as on the mock", async () => {
    const observed = await viaClient(target, (api) => clientCalls.updateSmsProvider(api, target), {
      Prefer: "code=409, example=ConflictProblem",
    });
    expect(observed.status).toBe(409);
    expect(observed.body).toEqual(examples.ConflictProblem);
  });

  it.each([
    ["code=418", /readWidget documents no 418/],
    ["code=abc", /code="abc" is not an HTTP status/],
    ["code=4040", /code="4040" is not an HTTP status/],
    ["example=../../etc/passwd", /example="\.\.\/\.\.\/etc\/passwd" is not an example name/],
    ["code=404, example=ConflictProblem", /no example ConflictProblem/],
  ])("Prefer: %s, which the document does not hold, is the mock's 400 problem naming Prefer", async (prefer, message) => {
    const unknown = await viaClient(target, (api) => clientCalls.readWidget(api, target), { Prefer: prefer });
    expect(unknown.status).toBe(400);
    expect(unknown.contentType).toBe("application/problem+json");
    expect(unknown.body).toMatchObject({ code: "validation_failed", errors: [{ in: "header", name: "Prefer", message: expect.stringMatching(message) }] });
    expect(check(deref(operation("readWidget").responses["400"]).content["application/problem+json"].schema, unknown.body)).toEqual({ valid: true, errors: "" });
  });

  it("a write answers the request's values of the record's fields and the path's id, in the documented shape", async () => {
    const put = await viaFetch(target, {
      method: "PUT",
      path: "/sms/providers/sms_aaaaaaaaaaaa",
      credentials: "bearer",
      body: { is_active: false, name: "Paused", countries: ["DE"], sort: "UP" },
    });
    // `sort: "UP"` is a move, not a position: the example's position stays (the mock runs the server's rule).
    expect(put.body).toMatchObject({ result: { id: "sms_aaaaaaaaaaaa", is_active: false, name: "Paused", countries: ["DE"], sort: 1, type: "VONAGE" } });
    const email = await viaFetch(target, {
      ...rawRequest("saveEmailTransport", target),
      body: { ...(exampleBody("saveEmailTransport") as object), email_from: "other@news.example" },
    });
    expect(email.body).toMatchObject({ result: { email_from: "other@news.example", auth: examples.EmailSave.result.auth } });
    for (const [operationId, observed] of [
      ["updateSmsProvider", put],
      ["saveEmailTransport", email],
    ] as const) {
      expect(check(deref(operation(operationId).responses["200"]).content["application/json"].schema, observed.body)).toEqual({ valid: true, errors: "" });
    }
  });

  it("Prefer: xcode=404 is another preference: the default answer", async () => {
    const observed = await viaClient(target, (api) => clientCalls.readWidget(api, target), { Prefer: "xcode=404" });
    expect(observed.status).toBe(200);
  });

  it("a 429's RateLimit agrees with it: no quota left, reset when Retry-After says", async () => {
    const observed = await viaFetch(target, { ...rawRequest("findWebhooks", target), headers: { Prefer: "code=429" } });
    expect(observed.status).toBe(429);
    expect(observed.headers.get("ratelimit")).toBe(`"default";r=0;t=${observed.headers.get("retry-after")}`);
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
    expect(back.body).toEqual(successExample("readWidget"));
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
});
