// Retries through the client, on a fetch that answers from a script, with fake timers: a 429
// is repeated on every method after Retry-After; a 503 or a network error only where
// repeating is safe; at most `tries` attempts; off with `retry: false`.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import createClient from "openapi-fetch";
import { createApiClient, type paths, retryAfterMs, retryMiddleware } from "../../client/index.js";
import { successExample } from "../support/document.js";
import { observingFetch } from "./observe.js";
import { outcome } from "./settles.js";

const baseUrl = "http://api.test/v1";
const widget = () => Response.json(successExample("readWidget"));
const problem = (status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ status }), { status, headers: { "content-type": "application/problem+json", ...headers } });
const networkError = () => Promise.reject(new TypeError("fetch failed"));

/** A fetch answering each attempt from the script in turn (the last one repeats). */
function scripted(...answers: (() => Response | Promise<Response>)[]) {
  let call = 0;
  return observingFetch(() => answers[Math.min(call++, answers.length - 1)]!());
}

function client(fetch: (request: Request) => Promise<Response>, retry: Parameters<typeof createApiClient>[0]["retry"] = {}) {
  return createApiClient({ baseUrl, apiKey: "ak_test", apiSecret: "as_test", fetch, retry, timeoutMs: false });
}

const readWidget = (api: ReturnType<typeof client>) => api.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } });
const move = (api: ReturnType<typeof client>, body: { sort?: "UP" | "DOWN" }) => api.PUT("/sms/providers/{id}", { params: { path: { id: "sms_9e4a1d7c3b2f" } }, body });
const notify = (api: ReturnType<typeof client>) => api.POST("/notifications", { body: { type: "SIMPLE", title: "Hello", content: "Hi", broadcast: true } });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("retry", () => {
  it("waits exactly Retry-After on a 429, then answers the retry", async () => {
    const { fetch, requests } = scripted(() => problem(429, { "retry-after": "2" }), widget);
    const call = readWidget(client(fetch));
    await vi.advanceTimersByTimeAsync(1999);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const { data, response } = await call;
    expect(requests).toHaveLength(2);
    expect(response.status).toBe(200);
    expect(data).toEqual(successExample("readWidget"));
  });

  it("repeats a 429 on a POST and on a sort move too, with the same credentials and body", async () => {
    const post = scripted(
      () => problem(429, { "retry-after": "1" }),
      () => Response.json(successExample("createNotification")),
    );
    const sent = notify(client(post.fetch));
    await vi.advanceTimersByTimeAsync(1000);
    expect((await sent).response.status).toBe(200);
    expect(post.requests).toHaveLength(2);
    expect(post.requests[1]!.headers.get("x-api-key")).toBe("ak_test");
    expect(await post.requests[1]!.json()).toEqual(await post.requests[0]!.json());

    const put = scripted(
      () => problem(429, { "retry-after": "1" }),
      () => Response.json(successExample("updateSmsProvider")),
    );
    const moved = move(client(put.fetch), { sort: "UP" });
    await vi.advanceTimersByTimeAsync(1000);
    expect((await moved).response.status).toBe(200);
    expect(put.requests).toHaveLength(2);
  });

  it("repeats a GET after a 503 and after a network error, with jittered exponential backoff", async () => {
    const { fetch, requests } = scripted(() => problem(503), networkError, widget);
    const call = readWidget(client(fetch, { tries: 3, baseDelayMs: 100, random: () => 0.5 }));
    await vi.advanceTimersByTimeAsync(49); // 100 ms × 0.5
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(99); // 200 ms × 0.5
    expect(requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect((await call).response.status).toBe(200);
    expect(requests).toHaveLength(3);
  });

  it("never repeats a sort move or a POST after a network error or a 503 by default", async () => {
    const put = scripted(networkError, () => Response.json(successExample("updateSmsProvider")));
    await expect(move(client(put.fetch, { tries: 5 }), { sort: "DOWN" })).rejects.toThrow("fetch failed");
    expect(put.requests).toHaveLength(1);

    const post = scripted(
      () => problem(503),
      () => Response.json(successExample("createNotification")),
    );
    expect((await notify(client(post.fetch, { tries: 5 }))).response.status).toBe(503);
    expect(post.requests).toHaveLength(1);
  });

  it("repeats a PUT without sort after a network error, and a POST when the caller opts in", async () => {
    const put = scripted(networkError, () => Response.json(successExample("updateSmsProvider")));
    const updated = move(client(put.fetch, { random: () => 0 }), {});
    await vi.advanceTimersByTimeAsync(0);
    expect((await updated).response.status).toBe(200);
    expect(put.requests).toHaveLength(2);

    const post = scripted(networkError, () => Response.json(successExample("createNotification")));
    const sent = notify(client(post.fetch, { retryPosts: true, random: () => 0 }));
    await vi.advanceTimersByTimeAsync(0);
    expect((await sent).response.status).toBe(200);
    expect(post.requests).toHaveLength(2);
  });

  it("gives up after `tries` attempts (default 2) and answers the last one", async () => {
    const twice = scripted(() => problem(503, { "retry-after": "0" }));
    const first = readWidget(client(twice.fetch));
    await vi.runAllTimersAsync();
    expect((await first).response.status).toBe(503);
    expect(twice.requests).toHaveLength(2);

    const four = scripted(() => problem(429, { "retry-after": "0" }));
    const call = readWidget(client(four.fetch, { tries: 4 }));
    await vi.runAllTimersAsync();
    expect((await call).response.status).toBe(429);
    expect(four.requests).toHaveLength(4);

    const network = scripted(networkError);
    const failing = readWidget(client(network.fetch, { random: () => 0 }));
    const failed = expect(failing).rejects.toThrow("fetch failed");
    await vi.runAllTimersAsync();
    await failed;
    expect(network.requests).toHaveLength(2);
  });

  it("answers at once when Retry-After is longer than maxDelayMs, or with retry: false", async () => {
    const long = scripted(() => problem(429, { "retry-after": "60" }), widget);
    expect((await readWidget(client(long.fetch, { maxDelayMs: 10_000 }))).response.status).toBe(429);
    expect(long.requests).toHaveLength(1);

    const off = scripted(() => problem(503), widget);
    expect((await readWidget(client(off.fetch, false))).response.status).toBe(503);
    expect(off.requests).toHaveLength(1);
  });

  it("does not repeat other statuses", async () => {
    for (const status of [400, 401, 404, 409, 500]) {
      const { fetch, requests } = scripted(() => problem(status), widget);
      expect((await readWidget(client(fetch))).response.status).toBe(status);
      expect(requests, String(status)).toHaveLength(1);
    }
  });

  it("defaults: the first backoff step is 250 ms, the longest wait 10 s, one try only with tries: 1", async () => {
    const backoff = scripted(() => problem(503), widget);
    const call = readWidget(client(backoff.fetch, { random: () => 0.5 }));
    await vi.advanceTimersByTimeAsync(124); // 250 ms × 0.5
    expect(backoff.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await call).response.status).toBe(200);

    const long = scripted(() => problem(429, { "retry-after": "11" }), widget);
    expect((await readWidget(client(long.fetch))).response.status).toBe(429);
    expect(long.requests).toHaveLength(1);

    const once = scripted(() => problem(429, { "retry-after": "0" }), widget);
    expect((await readWidget(client(once.fetch, { tries: 1 }))).response.status).toBe(429);
    expect(once.requests).toHaveLength(1);
  });

  it("an abort during the wait after a network error rejects with the signal's reason as it is, even one that is no Error (jsdom's DOMException)", async () => {
    const { fetch } = scripted(networkError, widget);
    const controller = new AbortController();
    const reason = { name: "TimeoutError", message: "from another realm" };
    const call = client(fetch, { baseDelayMs: 1000, random: () => 0.5 }).GET("/widgets/{id}", {
      params: { path: { id: "wgt_5a3c8e1f7b92" } },
      signal: controller.signal,
    });
    const outcome = call.then(
      () => "answered",
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(100);
    controller.abort(reason);
    expect(await outcome).toBe(reason);
  });

  it("waits a Retry-After of exactly maxDelayMs", async () => {
    const { fetch, requests } = scripted(() => problem(429, { "retry-after": "10" }), widget);
    const call = readWidget(client(fetch, { maxDelayMs: 10_000 }));
    await vi.advanceTimersByTimeAsync(10_000);
    expect((await call).response.status).toBe(200);
    expect(requests).toHaveLength(2);
  });

  it("never repeats another method, or a PUT to another path, after a 503 or a network error", async () => {
    type LooseCall = (path: string, init?: object) => Promise<{ response: Response }>;
    const deleted = scripted(() => problem(503), widget);
    const del = (client(deleted.fetch, { tries: 3 }) as unknown as { DELETE: LooseCall }).DELETE("/widgets/wgt_5a3c8e1f7b92");
    // Past any backoff: a retry, had one been started, has been sent (and fails here, not by hanging).
    await vi.advanceTimersByTimeAsync(10_000);
    expect((await del).response.status).toBe(503);
    expect(deleted.requests).toHaveLength(1);

    // The path of the one repeatable PUT, with another method (no such operation: a proxy's 503).
    const elsewhere = scripted(() => problem(503), widget);
    const onPath = (client(elsewhere.fetch, { tries: 3 }) as unknown as { DELETE: LooseCall }).DELETE("/sms/providers/{id}", {
      params: { path: { id: "sms_9e4a1d7c3b2f" } },
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect((await onPath).response.status).toBe(503);
    expect(elsewhere.requests).toHaveLength(1);

    const put = scripted(networkError, widget);
    const other = (client(put.fetch, { tries: 3 }) as unknown as { PUT: LooseCall }).PUT("/widgets/wgt_5a3c8e1f7b92", { body: {} });
    const failed = expect(other).rejects.toThrow("fetch failed");
    await vi.advanceTimersByTimeAsync(10_000);
    await failed;
    expect(put.requests).toHaveLength(1);
  });

  it("repeats a sort-less PUT whose body is not JSON or not an object: the server refuses it whatever happens", async () => {
    for (const text of ["not json", "null", "5"]) {
      const { fetch, requests } = scripted(() => problem(503), widget);
      const call = (client(fetch, { random: () => 0 }) as unknown as { PUT: (path: string, init: object) => Promise<{ response: Response }> }).PUT(
        "/sms/providers/{id}",
        { params: { path: { id: "sms_9e4a1d7c3b2f" } }, body: {}, bodySerializer: () => text },
      );
      await vi.advanceTimersByTimeAsync(0);
      expect((await call).response.status, text).toBe(200);
      expect(requests.map((request) => request.method)).toEqual(["PUT", "PUT"]);
    }
  });

  it("cancels the body of an answer it does not hand back", async () => {
    const answers: Response[] = [];
    const { fetch } = scripted(
      () => (answers.push(problem(503)), answers.at(-1)!),
      () => (answers.push(widget()), answers.at(-1)!),
    );
    const call = readWidget(client(fetch, { random: () => 0 }));
    await vi.advanceTimersByTimeAsync(0);
    expect((await call).response.status).toBe(200);
    expect(answers.map((answer) => answer.bodyUsed)).toEqual([true, true]);
  });

  it("retries a 429 that has no body at all (a fetch passed in, MSW): there is nothing to cancel", async () => {
    const { fetch, requests } = scripted(() => new Response(null, { status: 429, headers: { "retry-after": "1" } }), widget);
    const call = readWidget(client(fetch));
    await vi.advanceTimersByTimeAsync(1000);
    expect((await call).response.status).toBe(200);
    expect(requests).toHaveLength(2);
  });

  it("rethrows the last network error as thrown, and a thrown non-Error as an Error with its text", async () => {
    const thrown = new TypeError("fetch failed");
    const failing = readWidget(client(() => Promise.reject(thrown), { random: () => 0 }));
    const failed = failing.then(
      () => undefined,
      (error: unknown) => error,
    );
    await vi.runAllTimersAsync();
    expect(await failed).toBe(thrown);

    const odd = readWidget(client(() => Promise.reject("connection reset"), { random: () => 0 }));
    const oddFailed = odd.then(
      () => undefined,
      (error: unknown) => error,
    );
    await vi.runAllTimersAsync();
    const error = await oddFailed;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe("connection reset");

    // Even nothing at all: openapi-fetch rethrows only a truthy error, so `undefined` left as
    // it is would go on as an answer that does not exist.
    const nothing = outcome(readWidget(client(() => Promise.reject(undefined), { random: () => 0 })));
    await vi.runAllTimersAsync();
    expect(await nothing).toMatchObject({ name: "Error", message: "undefined" });
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-03-01T10:00:00Z");
    expect(retryAfterMs(new Response(null, { headers: { "retry-after": "Sun, 01 Mar 2026 09:59:00 GMT" } }), now)).toBe(0);
    expect(retryAfterMs(new Response(null, { headers: { "retry-after": " 7 " } }), now)).toBe(7000);
    expect(retryAfterMs(new Response(null, { headers: { "retry-after": "42" } }), now)).toBe(42_000);
    expect(retryAfterMs(new Response(null, { headers: { "retry-after": "Sun, 01 Mar 2026 10:00:05 GMT" } }), now)).toBe(5000);
    expect(retryAfterMs(new Response(null, { headers: { "retry-after": "soon" } }), now)).toBeUndefined();
    expect(retryAfterMs(new Response(null), now)).toBeUndefined();
  });

  it("works on a client of its own, without the call deadlines createApiClient gives it", async () => {
    const { fetch, requests } = scripted(() => problem(503), widget);
    const own = createClient<paths>({ baseUrl, fetch });
    own.use(retryMiddleware({ random: () => 0 }));
    const call = own.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } }, headers: { authorization: "Bearer ak_test" } });
    await vi.advanceTimersByTimeAsync(0);
    expect((await call).response.status).toBe(200);
    expect(requests).toHaveLength(2);
  });

  it("refuses tries below 1", () => {
    expect(() => client(widget as never, { tries: 0 })).toThrow(/tries/);
  });
});
