// The client's retries, time budget, cancelling and paging under msw/node, where UI unit
// tests run it: the package's own handlers (createHandlers, override) answer through MSW's
// fetch interceptor, whose response bodies never settle a cancel(). Every call is raced
// against a real-time bound, so a call that would hang fails its test naming it (`settles`)
// instead of running into vitest's timeout. Budgets and waits are a few hundred ms.
import { delay, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import createClient from "openapi-fetch";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApiClient, type PageError, paginate, retryMiddleware } from "../../client/index.js";
import type { paths } from "../../generated/schema.js";
import { createHandlers, documentedResponse, examples, override } from "../../msw/index.js";
import { outcome, settles } from "../client/settles.js";

const baseUrl = "http://api.msw-client.test/v1";
const server = setupServer(...createHandlers({ baseUrl }));
const bound = 2_000;

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = (options: Partial<Parameters<typeof createApiClient>[0]> = {}) =>
  createApiClient({ baseUrl, apiKey: "ak_live_msw", apiSecret: "as_live_msw", ...options });
const readWidget = (api: ReturnType<typeof client>, signal?: AbortSignal) =>
  api.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } }, ...(signal ? { signal } : {}) });

/**
 * A resolver answering each attempt from the script in turn (the last one repeats), counting
 * them. Typed `never` for `override`: documentedResponse's bodies are the document's, but
 * typed loosely, and `delay("infinite")` answers nothing.
 */
function scripted(...answers: (() => unknown)[]) {
  let calls = 0;
  const attempts = () => calls;
  return { attempts, answer: (() => answers[Math.min(calls++, answers.length - 1)]!()) as () => never };
}

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
const endlessBody = scripted(
  () =>
    new HttpResponse(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"type":'));
        },
      }),
      { status: 200, headers: { "Content-Type": "application/json" } },
    ),
).answer;

describe("under msw/node: retries settle", { timeout: 5_000 }, () => {
  it("the default client retries a 503 without Retry-After on a GET and answers the retry", async () => {
    const script = scripted(
      () => unavailable("readWidget"),
      () => documentedResponse("readWidget"),
    );
    server.use(override("readWidget", baseUrl, script.answer));
    const { response, data } = await settles(readWidget(client()), bound);
    expect(response.status).toBe(200);
    expect(data).toEqual(examples.WidgetRead);
    expect(script.attempts()).toBe(2);
  });

  it("a 503 with Retry-After: 0 on every try is answered as the 503 after the last one", async () => {
    const script = scripted(() => unavailable("readWidget", "0"));
    server.use(override("readWidget", baseUrl, script.answer));
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
    server.use(override("createNotification", baseUrl, script.answer));
    const sent = client().POST("/notifications", { body: { type: "SIMPLE", title: "Hello", content: "Hi", broadcast: true } });
    expect((await settles(sent, bound)).response.status).toBe(200);
    expect(script.attempts()).toBe(2);
  });

  it("a network error on a GET is retried", async () => {
    const script = scripted(
      () => HttpResponse.error(),
      () => documentedResponse("readWidget"),
    );
    server.use(override("readWidget", baseUrl, script.answer));
    expect((await settles(readWidget(client({ retry: { baseDelayMs: 20 } })), bound)).response.status).toBe(200);
    expect(script.attempts()).toBe(2);
  });

  it("retryMiddleware on a plain openapi-fetch client settles too (it does not wait on the body's cancel)", async () => {
    const script = scripted(
      () => unavailable("readWidget"),
      () => documentedResponse("readWidget"),
    );
    server.use(override("readWidget", baseUrl, script.answer));
    const plain = createClient<paths>({ baseUrl });
    plain.use(retryMiddleware({ baseDelayMs: 20 }));
    const result = await settles(plain.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } }), bound);
    expect(result.response.status).toBe(200);
    expect(script.attempts()).toBe(2);
  });
});

describe("under msw/node: the time budget ends the call", { timeout: 5_000 }, () => {
  const timedOut = { name: "TimeoutError", message: "The request took longer than 200 ms" };

  it("a handler that never answers", async () => {
    server.use(override("readWidget", baseUrl, scripted(() => delay("infinite")).answer));
    expect(await settles(outcome(readWidget(client({ timeoutMs: 200 }))), bound)).toMatchObject(timedOut);
  });

  it("an answer whose body never ends", async () => {
    server.use(override("readWidget", baseUrl, endlessBody));
    expect(await settles(outcome(readWidget(client({ timeoutMs: 200 }))), bound)).toMatchObject(timedOut);
  });

  it("a 503, retried, then a handler that never answers", async () => {
    const script = scripted(
      () => unavailable("readWidget"),
      () => delay("infinite"),
    );
    server.use(override("readWidget", baseUrl, script.answer));
    expect(await settles(outcome(readWidget(client({ timeoutMs: 200, retry: { baseDelayMs: 1 } }))), bound)).toMatchObject(timedOut);
    expect(script.attempts()).toBe(2);
  });

  it("a 429 whose Retry-After the budget would cut is answered at once, as the 429", async () => {
    server.use(override("readWidget", baseUrl, scripted(() => documentedResponse("readWidget", { status: 429 })).answer));
    const { response, error } = await settles(readWidget(client({ timeoutMs: 200 })), bound);
    expect(response.status).toBe(429);
    expect(error).toMatchObject({ code: "rate_limited" });
  });
});

describe("under msw/node: the caller's signal cancels the call", { timeout: 5_000 }, () => {
  const aborted = { name: "AbortError" };

  it("while the handler has not answered", async () => {
    server.use(override("readWidget", baseUrl, scripted(() => delay("infinite")).answer));
    const controller = new AbortController();
    const call = outcome(readWidget(client(), controller.signal));
    setTimeout(() => controller.abort(), 50);
    expect(await settles(call, bound)).toMatchObject(aborted);
  });

  it("during a retry's wait", async () => {
    server.use(override("readWidget", baseUrl, scripted(() => unavailable("readWidget")).answer));
    const controller = new AbortController();
    const call = outcome(readWidget(client({ retry: { baseDelayMs: 10_000, maxDelayMs: 10_000, random: () => 0.99 } }), controller.signal));
    setTimeout(() => controller.abort(), 50);
    expect(await settles(call, bound)).toMatchObject(aborted);
  });

  it("while the body is being read", async () => {
    server.use(override("readWidget", baseUrl, endlessBody));
    const controller = new AbortController();
    const call = outcome(readWidget(client(), controller.signal));
    setTimeout(() => controller.abort(), 50);
    expect(await settles(call, bound)).toMatchObject(aborted);
  });
});

describe("under msw/node: paging settles", { timeout: 5_000 }, () => {
  const webhook = examples.WebhookFind.result[0]!;
  /** Page `page` of 3, one webhook each, with the page in its id. */
  const page = (request: Request) => {
    const number = Number(new URL(request.url).searchParams.get("page"));
    return HttpResponse.json({
      ...examples.WebhookFind,
      result: [{ ...webhook, id: `whk_page${number}` }],
      meta: { total_count: 3, page_count: 3, current_count: 1, current_page: number },
    }) as never;
  };

  it("walks the default handlers' one page", async () => {
    const ids = await settles(collect(paginate(client(), "/webhooks")), bound);
    expect(ids).toEqual(examples.WebhookFind.result);
  });

  it("walks three pages, a 503 on the second retried", async () => {
    let second = 0;
    server.use(
      override("findWebhooks", baseUrl, ({ request }) =>
        new URL(request.url).searchParams.get("page") === "2" && second++ === 0 ? (unavailable("findWebhooks") as never) : page(request),
      ),
    );
    const records = await settles(collect(paginate(client({ retry: { baseDelayMs: 20 } }), "/webhooks")), bound);
    expect(records.map((record) => record.id)).toEqual(["whk_page1", "whk_page2", "whk_page3"]);
  });

  it("a page that never answers ends the walk with the client's TimeoutError", async () => {
    server.use(override("findWebhooks", baseUrl, ({ request }) => (new URL(request.url).searchParams.get("page") === "2" ? delay("infinite") : page(request))));
    const walk = collect(paginate(client({ timeoutMs: 200 }), "/webhooks"));
    expect(await settles(outcome(walk), bound)).toMatchObject({ name: "TimeoutError" });
  });

  it("the caller's signal ends a walk mid-page, and a refused page is a PageError", async () => {
    server.use(override("findWebhooks", baseUrl, ({ request }) => (new URL(request.url).searchParams.get("page") === "2" ? delay("infinite") : page(request))));
    const controller = new AbortController();
    const walk = outcome(collect(paginate(client(), "/webhooks", {}, { signal: controller.signal })));
    setTimeout(() => controller.abort(), 50);
    expect(await settles(walk, bound)).toMatchObject({ name: "AbortError" });

    server.use(override("findWebhooks", baseUrl, scripted(() => unavailable("findWebhooks", "0")).answer));
    const refused = (await settles(outcome(collect(paginate(client({ retry: false }), "/webhooks"))), bound)) as PageError;
    expect(refused).toMatchObject({ name: "PageError", status: 503, page: 1 });
  });
});
