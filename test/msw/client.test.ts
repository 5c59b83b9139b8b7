// The client's retries, time budget, cancelling, body limit and paging under msw/node, where
// UI unit tests run it, through the package's own handlers (createHandlers, override): under
// MSW 3 here, and again under MSW 2 (the msw2 project of test/vitest.config.ts maps `msw` to
// it). Every call is raced against a real-time bound, so a call that would hang fails its test
// naming it (`settles`) instead of running into vitest's timeout, and an uncaught error from
// the interceptor (MSW 3.0.5's undici assertion on an aborted unframed body) fails the run.
// Budgets and waits are a few hundred ms. The same file in a consumer project, from the packed
// packages, under jsdom and happy-dom too: test/package/frontend-matrix.test.ts.
import { setupServer } from "msw/node";
import createClient from "openapi-fetch";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApiClient, type PageError, paginate, retryMiddleware, ResponseTooLargeError } from "../../client/index.js";
import type { OperationId } from "../../generated/operations.js";
import type { paths } from "../../generated/schema.js";
import { createHandlers, documentedResponse, examples, override } from "../../msw/index.js";
import { outcome, settles } from "../client/settles.js";

// The API on another origin than the page's (a browser-like environment preflights every
// call), or with API_ORIGIN=same on the page's own (test/package/frontend-matrix.test.ts runs
// this file in a consumer project under jsdom and happy-dom, both ways).
const pageLocation = (globalThis as { location?: { origin: string } }).location;
const baseUrl = process.env.API_ORIGIN === "same" ? `${pageLocation!.origin}/v1` : "http://api.msw-client.test/v1";
// A hang never settles: 4 s tells one apart from a slow answer at load 20, inside the 8 s per test.
const bound = 4_000;

type Resolver = (info: { request: Request }) => unknown;

const server = setupServer(...createHandlers({ baseUrl }));
// Each major reads its own name for the option (MSW 3: onUnhandledFrame).
const strict = { onUnhandledRequest: "error", onUnhandledFrame: "error" } as const;
beforeAll(() => server.listen(strict));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());
const use = (operationId: OperationId, resolver: Resolver) => server.use(override(operationId, baseUrl, resolver as never));

const client = (options: Partial<Parameters<typeof createApiClient>[0]> = {}) =>
  createApiClient({ baseUrl, apiKey: "ak_live_msw", apiSecret: "as_live_msw", ...options });
const readWidget = (api: ReturnType<typeof client>, signal?: AbortSignal) =>
  api.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } }, ...(signal ? { signal } : {}) });

/** A resolver answering each attempt from the script in turn (the last one repeats), counting them. */
function scripted(...answers: Resolver[]) {
  let calls = 0;
  return { attempts: () => calls, answer: ((info) => answers[Math.min(calls++, answers.length - 1)]!(info)) as Resolver };
}

/** A handler that never answers. */
const never = () => new Promise<never>(() => {});

/** Every item of a walk, in order. */
async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** The documented 503 of GET /widgets/{id} or GET /webhooks; its Retry-After (42 s, past maxDelayMs) set to `seconds` or removed. */
function unavailable(operationId: "readWidget" | "findWebhooks", seconds?: string) {
  const response = documentedResponse(operationId, { status: 503 });
  if (seconds === undefined) response.headers.delete("Retry-After");
  else response.headers.set("Retry-After", seconds);
  return response;
}

/** A 200 whose body sends its first bytes and then nothing, never ending. */
const endlessBody = () =>
  new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"type":'));
      },
    }),
    { status: 200, headers: { "Content-Type": "application/json" } },
  );

/** Page `page` of 3 of GET /webhooks, one webhook each, with the page in its id. */
function page(request: Request) {
  const number = Number(new URL(request.url).searchParams.get("page"));
  return Response.json({
    ...examples.WebhookFind,
    result: [{ ...examples.WebhookFind.result[0]!, id: `whk_page${number}` }],
    meta: { total_count: 3, page_count: 3, current_count: 1, current_page: number },
  });
}
const pageNumber = (request: Request) => new URL(request.url).searchParams.get("page");

describe(`under MSW ${process.env.MSW_MAJOR ?? "3"}`, { timeout: 8_000 }, () => {
  describe("retries settle", () => {
    it("the default client retries a 503 without Retry-After on a GET and answers the retry", async () => {
      const script = scripted(
        () => unavailable("readWidget"),
        () => documentedResponse("readWidget"),
      );
      use("readWidget", script.answer);
      const { response, data } = await settles(readWidget(client()), bound);
      expect(response.status).toBe(200);
      expect(data).toEqual(examples.WidgetRead);
      expect(script.attempts()).toBe(2);
    });

    it("a 503 with Retry-After: 0 on every try is answered as the 503 after the last one", async () => {
      const script = scripted(() => unavailable("readWidget", "0"));
      use("readWidget", script.answer);
      const { response, error } = await settles(readWidget(client({ retry: { tries: 3, baseDelayMs: 20 } })), bound);
      expect(response.status).toBe(503);
      expect(error).toMatchObject({ code: "service_unavailable" });
      expect(script.attempts()).toBe(3);
    });

    it("a 429 with Retry-After: 1 is waited and retried, on a POST too", async () => {
      const limited = () => {
        const response = documentedResponse("createNotification", { status: 429 });
        response.headers.set("Retry-After", "1");
        return response;
      };
      const script = scripted(limited, () => documentedResponse("createNotification"));
      use("createNotification", script.answer);
      const sent = client().POST("/notifications", { body: { type: "SIMPLE", title: "Hello", content: "Hi", broadcast: true } });
      expect((await settles(sent, bound)).response.status).toBe(200);
      expect(script.attempts()).toBe(2);
    });

    it("a network error on a GET is retried", async () => {
      const script = scripted(
        () => Response.error(),
        () => documentedResponse("readWidget"),
      );
      use("readWidget", script.answer);
      expect((await settles(readWidget(client({ retry: { baseDelayMs: 20 } })), bound)).response.status).toBe(200);
      expect(script.attempts()).toBe(2);
    });

    it("retryMiddleware on a plain openapi-fetch client settles too (it does not wait on the body's cancel)", async () => {
      const script = scripted(
        () => unavailable("readWidget"),
        () => documentedResponse("readWidget"),
      );
      use("readWidget", script.answer);
      const plain = createClient<paths>({ baseUrl });
      plain.use(retryMiddleware({ baseDelayMs: 20 }));
      const result = await settles(plain.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } }), bound);
      expect(result.response.status).toBe(200);
      expect(script.attempts()).toBe(2);
    });
  });

  describe("the time budget ends the call", () => {
    const timedOut = { name: "TimeoutError", message: "The request took longer than 200 ms" };

    it("a handler that never answers", async () => {
      use("readWidget", never);
      expect(await settles(outcome(readWidget(client({ timeoutMs: 200 }))), bound)).toMatchObject(timedOut);
    });

    it("an answer whose body never ends", async () => {
      use("readWidget", endlessBody);
      expect(await settles(outcome(readWidget(client({ timeoutMs: 200 }))), bound)).toMatchObject(timedOut);
    });

    it("a 503, retried, then a handler that never answers", async () => {
      const script = scripted(() => unavailable("readWidget"), never);
      use("readWidget", script.answer);
      // A budget the first answer fits in on a busy machine, so the retry is made.
      const called = readWidget(client({ timeoutMs: 1_500, retry: { baseDelayMs: 1 } }));
      expect(await settles(outcome(called), bound)).toMatchObject({ name: "TimeoutError", message: "The request took longer than 1500 ms" });
      expect(script.attempts()).toBe(2);
    });

    it("a 429 whose Retry-After the budget would cut is answered at once, as the 429", async () => {
      use("readWidget", () => documentedResponse("readWidget", { status: 429 }));
      const { response, error } = await settles(readWidget(client({ timeoutMs: 200 })), bound);
      expect(response.status).toBe(429);
      expect(error).toMatchObject({ code: "rate_limited" });
    });
  });

  describe("the caller's signal cancels the call", () => {
    const abortedAfter = async (call: (signal: AbortSignal) => Promise<unknown>) => {
      const controller = new AbortController();
      const settled = outcome(call(controller.signal));
      setTimeout(() => controller.abort(), 50);
      expect(await settles(settled, bound)).toMatchObject({ name: "AbortError" });
    };

    it("while the handler has not answered", async () => {
      use("readWidget", never);
      await abortedAfter((signal) => readWidget(client(), signal));
    });

    it("during a retry's wait", async () => {
      use("readWidget", () => unavailable("readWidget"));
      await abortedAfter((signal) => readWidget(client({ retry: { baseDelayMs: 10_000, maxDelayMs: 10_000, random: () => 0.99 } }), signal));
    });

    it("while the body is being read", async () => {
      use("readWidget", endlessBody);
      await abortedAfter((signal) => readWidget(client(), signal));
    });
  });

  describe("the body limit ends the call", () => {
    const mib5 = 5 * 1024 * 1024;
    it("a 5 MiB answer with its Content-Length: ResponseTooLargeError before the body is read", async () => {
      use("readWidget", () => new Response("x".repeat(mib5), { headers: { "Content-Type": "application/json" } }));
      expect(await settles(outcome(readWidget(client())), bound)).toBeInstanceOf(ResponseTooLargeError);
    });

    it("a 5 MiB answer streamed in chunks: ResponseTooLargeError once 4 MiB are passed", async () => {
      const chunk = new Uint8Array(64 * 1024);
      const stream = () =>
        new Response(
          new ReadableStream({
            start(controller) {
              for (let sent = 0; sent < mib5; sent += chunk.byteLength) controller.enqueue(chunk);
              controller.close();
            },
          }),
          { headers: { "Content-Type": "application/json" } },
        );
      use("readWidget", stream);
      expect(await settles(outcome(readWidget(client())), bound)).toBeInstanceOf(ResponseTooLargeError);
    });
  });

  describe("paging settles", () => {
    it("walks the default handlers' one page", async () => {
      expect(await settles(collect(paginate(client(), "/webhooks")), bound)).toEqual(examples.WebhookFind.result);
    });

    it("walks three pages, a 503 on the second retried", async () => {
      let second = 0;
      use("findWebhooks", ({ request }) => (pageNumber(request) === "2" && second++ === 0 ? unavailable("findWebhooks") : page(request)));
      const records = await settles(collect(paginate(client({ retry: { baseDelayMs: 20 } }), "/webhooks")), bound);
      expect(records.map((record) => record.id)).toEqual(["whk_page1", "whk_page2", "whk_page3"]);
    });

    it("a page that never answers ends the walk with the client's TimeoutError", async () => {
      use("findWebhooks", ({ request }) => (pageNumber(request) === "2" ? never() : page(request)));
      expect(await settles(outcome(collect(paginate(client({ timeoutMs: 200 }), "/webhooks"))), bound)).toMatchObject({ name: "TimeoutError" });
    });

    it("the caller's signal ends a walk mid-page, and a refused page is a PageError", async () => {
      use("findWebhooks", ({ request }) => (pageNumber(request) === "2" ? never() : page(request)));
      const controller = new AbortController();
      const walk = outcome(collect(paginate(client(), "/webhooks", {}, { signal: controller.signal })));
      setTimeout(() => controller.abort(), 50);
      expect(await settles(walk, bound)).toMatchObject({ name: "AbortError" });

      use("findWebhooks", () => unavailable("findWebhooks", "0"));
      const refused = (await settles(outcome(collect(paginate(client({ retry: false }), "/webhooks"))), bound)) as PageError;
      expect(refused).toMatchObject({ name: "PageError", status: 503, page: 1 });
    });
  });
});
