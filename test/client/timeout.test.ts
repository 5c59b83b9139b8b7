// The client's default timeout aborts a call still running, the caller's own AbortSignal
// still cancels it, a call that answers in time leaves no timer behind, and a Retry-After
// the timeout would cut is answered as the 429 it is.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import createClient from "openapi-fetch";
import { createApiClient, defaultTimeoutMs, type paths, timeoutMiddleware } from "../../client/index.js";
import { successExample } from "../support/document.js";
import { settledState } from "./settles.js";

const baseUrl = "http://api.test/v1";

/** A fetch that answers only when told to, and rejects with the signal's reason when aborted. */
function hangingFetch() {
  let answer: (() => void) | undefined;
  const fetch = (request: Request) =>
    new Promise<Response>((resolve, reject) => {
      request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
      answer = () => resolve(Response.json(successExample("readWidget")));
    });
  return { fetch, answer: () => answer!() };
}

const readWidget = (api: ReturnType<typeof createApiClient>, signal?: AbortSignal) =>
  api.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } }, ...(signal ? { signal } : {}) });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("timeout", () => {
  it("aborts after the default 30 s with a TimeoutError", async () => {
    expect(defaultTimeoutMs).toBe(30_000);
    const { fetch } = hangingFetch();
    const call = readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch }));
    const outcome = expect(call).rejects.toMatchObject({ name: "TimeoutError" });
    await vi.advanceTimersByTimeAsync(29_999);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
  });

  it("takes timeoutMs, and the call answered in time leaves no timer", async () => {
    const slow = hangingFetch();
    const call = readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch: slow.fetch, timeoutMs: 500 }));
    const outcome = expect(call).rejects.toThrow(/longer than 500 ms/);
    await vi.advanceTimersByTimeAsync(500);
    await outcome;

    const quick = hangingFetch();
    const answered = readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch: quick.fetch, timeoutMs: 500 }));
    await vi.advanceTimersByTimeAsync(10);
    quick.answer();
    expect((await answered).response.status).toBe(200);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("covers the body: an answer whose body never ends, from a fetch that ignores the signal, ends at the deadline and leaves no timer", async () => {
    const endless = () =>
      new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode("{")) }), {
        headers: { "content-type": "application/json" },
      });
    const call = readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch: async () => endless(), timeoutMs: 500 }));
    const outcome = expect(call).rejects.toMatchObject({ name: "TimeoutError", message: "The request took longer than 500 ms" });
    await vi.advanceTimersByTimeAsync(499);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(vi.getTimerCount()).toBe(0);

    const ignoring = readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch: () => new Promise<Response>(() => {}), timeoutMs: 500 }));
    const ended = expect(ignoring).rejects.toMatchObject({ name: "TimeoutError" });
    await vi.advanceTimersByTimeAsync(500);
    await ended;
  });

  it("the caller's AbortSignal still cancels the call, before the timeout", async () => {
    const { fetch } = hangingFetch();
    const controller = new AbortController();
    const call = readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch }), controller.signal);
    const outcome = expect(call).rejects.toMatchObject({ name: "AbortError" });
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    await outcome;
  });

  it("a caller's signal aborted before the call ends it at once, even on a fetch that never answers", async () => {
    const call = readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch: () => new Promise<Response>(() => {}), timeoutMs: false }), AbortSignal.abort());
    const state = settledState(call);
    await vi.advanceTimersByTimeAsync(0);
    expect(state()).toMatchObject({ name: "AbortError" });
  });

  // A fetch passed in may hand on any header: a transfer coding other than chunked is no body to read.
  it.each<Record<string, string>>([{ "content-length": "0" }, { "content-length": "0", "transfer-encoding": "gzip" }])(
    "an answer openapi-fetch does not read (%j) ends the call's timer with the call: its body stays readable after the deadline",
    async (headers) => {
      const fetch = async () => new Response("", { headers });
      const { response } = await readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch, timeoutMs: 500 }));
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(1000);
      expect(await response.text()).toBe("");
    },
  );

  // Chromium gives a 204, 205, 304 or HEAD answer an empty stream for body where Node's fetch gives
  // null (the Response constructor refuses a body on those statuses, so one is simulated here).
  it("a 204 or a HEAD answer with an empty stream for body (as Chromium gives them): the call answers and leaves no timer", async () => {
    const api = createApiClient({
      baseUrl,
      apiKey: "ak_test",
      timeoutMs: 500,
      retry: false,
      fetch: async () => Object.defineProperty(new Response(""), "status", { value: 204 }),
    });
    const { data, response } = await readWidget(api);
    expect({ status: response.status, data }).toEqual({ status: 204, data: undefined });
    expect(vi.getTimerCount()).toBe(0);

    // No operation has HEAD (the client's type has none), but openapi-fetch's HEAD is there for a JavaScript caller.
    const head = createApiClient({ baseUrl, apiKey: "ak_test", timeoutMs: 500, fetch: async () => new Response("") }) as unknown as {
      HEAD(path: string, init: object): Promise<{ response: Response }>;
    };
    expect((await head.HEAD("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } })).response.status).toBe(200);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a call that fails (a network error) leaves no timer behind", async () => {
    const call = readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch: () => Promise.reject(new TypeError("fetch failed")), retry: false }));
    await expect(call).rejects.toThrow("fetch failed");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("an answer with Content-Length: 0 but sent chunked is read by openapi-fetch: a body that never ends is cut at the deadline", async () => {
    const endless = new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode("{")) }), {
      headers: { "content-type": "application/json", "content-length": "0", "transfer-encoding": "chunked" },
    });
    const state = settledState(readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch: async () => endless, timeoutMs: 500 })));
    await vi.advanceTimersByTimeAsync(500);
    expect(state()).toMatchObject({ name: "TimeoutError" });
  });

  it("works on a client of its own, without the call deadlines createApiClient gives it", async () => {
    const quick = hangingFetch();
    const own = createClient<paths>({ baseUrl, fetch: quick.fetch });
    own.use(timeoutMiddleware(500));
    const answered = own.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } });
    await vi.advanceTimersByTimeAsync(10);
    quick.answer();
    expect((await answered).response.status).toBe(200);
    expect(vi.getTimerCount()).toBe(0);

    const slow = hangingFetch();
    const late = createClient<paths>({ baseUrl, fetch: slow.fetch });
    late.use(timeoutMiddleware(500));
    const state = settledState(late.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } }));
    await vi.advanceTimersByTimeAsync(500);
    expect(state()).toMatchObject({ name: "TimeoutError" });
  });

  it("a call aborted after its answer arrived, before its body is read (another middleware still at work): the body is not read, the call ends with the abort", async () => {
    const caller = new AbortController();
    const own = createClient<paths>({ baseUrl, fetch: async () => Response.json(successExample("readWidget")) });
    own.use(timeoutMiddleware(500));
    // Registered after, so its onResponse runs first: the caller aborts meanwhile.
    own.use({ onResponse: () => void caller.abort() });
    const call = own.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } }, signal: caller.signal });
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a fetch that ignores the signal and answers after the deadline: that late answer's body is let go, a bodiless one too", async () => {
    const late: Response[] = [];
    // Letting go of a bodiless answer must not throw where nobody catches it.
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    const answerLate = (response: Response) => () => new Promise<Response>((resolve) => setTimeout(() => resolve(late[late.push(response) - 1]!), 1000));
    for (const response of [Response.json(successExample("readWidget")), new Response(null, { status: 204 })]) {
      const state = settledState(readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch: answerLate(response), timeoutMs: 500, retry: false })));
      await vi.advanceTimersByTimeAsync(500);
      expect(state()).toMatchObject({ name: "TimeoutError" });
      await vi.advanceTimersByTimeAsync(500);
    }
    await new Promise((resolve) => process.nextTick(resolve));
    process.off("unhandledRejection", onUnhandled);
    expect(late.map((response) => response.bodyUsed)).toEqual([true, false]);
    expect(unhandled).toEqual([]);
  });

  it("an abort during a retry's wait ends the call's timer with it, not 30 s later", async () => {
    const fetch = vi.fn(async () => new Response("{}", { status: 503, headers: { "content-type": "application/problem+json" } }));
    const controller = new AbortController();
    const api = createApiClient({ baseUrl, apiKey: "ak_test", fetch, retry: { baseDelayMs: 5000, random: () => 0.5 } });
    const outcome = expect(readWidget(api, controller.signal)).rejects.toMatchObject({ name: "AbortError" });
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    await outcome;
    expect(vi.getTimerCount()).toBe(0);
  });

  it("answers a 429 whose Retry-After would end after the timeout, Retry-After included, instead of a TimeoutError", async () => {
    const fetch = vi.fn(
      async () => new Response('{"code":"rate_limited"}', { status: 429, headers: { "retry-after": "5", "content-type": "application/problem+json" } }),
    );
    const call = readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch, timeoutMs: 1000 }));
    await vi.advanceTimersByTimeAsync(0);
    const { response, error } = await call;
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(error).toMatchObject({ code: "rate_limited" });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("still waits a Retry-After that fits in what is left, and retries", async () => {
    let calls = 0;
    const fetch = vi.fn(async () =>
      ++calls === 1
        ? new Response("{}", { status: 429, headers: { "retry-after": "1", "content-type": "application/problem+json" } })
        : Response.json(successExample("readWidget")),
    );
    const call = readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch, timeoutMs: 5000 }));
    await vi.advanceTimersByTimeAsync(1000);
    expect((await call).response.status).toBe(200);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("a wait longer than what is left after time spent is not started either", async () => {
    let calls = 0;
    const fetch = vi.fn(async () => {
      calls += 1;
      // The first answer comes late: 1.5 s of the 2 s are gone when the 1 s Retry-After is read.
      if (calls === 1) await new Promise((resolve) => setTimeout(resolve, 1500));
      return new Response("{}", { status: 429, headers: { "retry-after": "1", "content-type": "application/problem+json" } });
    });
    const call = readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch, timeoutMs: 2000 }));
    await vi.advanceTimersByTimeAsync(1500);
    expect((await call).response.status).toBe(429);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("a Retry-After exactly as long as what is left is not waited: the retry could not start", async () => {
    const fetch = vi.fn(async () => new Response("{}", { status: 429, headers: { "retry-after": "2", "content-type": "application/problem+json" } }));
    const call = readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch, timeoutMs: 2000 }));
    // Past the deadline: a wait started by mistake would have ended in a retry or a timeout.
    await vi.advanceTimersByTimeAsync(2000);
    expect((await call).response.status).toBe(429);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it.each([0, -1, Number.POSITIVE_INFINITY, Number.NaN])("refuses timeoutMs %s", (timeoutMs) => {
    expect(() => createApiClient({ baseUrl, apiKey: "ak_test", timeoutMs })).toThrow(`timeout: must be a positive number of ms, got ${timeoutMs}`);
  });

  it("timeoutMs: false sets none", async () => {
    const { fetch, answer } = hangingFetch();
    const call = readWidget(createApiClient({ baseUrl, apiKey: "ak_test", fetch, timeoutMs: false }));
    await vi.advanceTimersByTimeAsync(120_000);
    answer();
    expect((await call).response.status).toBe(200);
  });
});
