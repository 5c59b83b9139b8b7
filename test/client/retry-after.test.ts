// `Retry-After` is delta-seconds or an HTTP date (RFC 9110 §10.2.3): `5s` is neither, so the
// client falls back to its own backoff instead of reading 5 seconds. A mutant that dropped
// the end anchor of the delta-seconds pattern read `5s` as 5 and survived the retry tests.
import { describe, expect, it } from "vitest";
import { createApiClient, retryAfterMs } from "../../client/index.js";
import { successExample } from "../support/document.js";

const withRetryAfter = (value: string) => new Response(null, { status: 429, headers: { "retry-after": value } });

describe("Retry-After", () => {
  it.each([
    ["5", 5000],
    [" 5 ", 5000],
    ["0", 0],
  ])("%j is %d ms", (value, ms) => {
    expect(retryAfterMs(withRetryAfter(value))).toBe(ms);
  });

  it.each(["5s", "5 s", "1e3", "0x10", "five"])("%j is unreadable: no wait is taken from it", (value) => {
    expect(retryAfterMs(withRetryAfter(value))).toBeUndefined();
  });

  it("through the client: a 429 with `Retry-After: 5s` is retried on the backoff, one with `5` beyond the longest wait is answered", async () => {
    const calls = (retryAfter: string) => {
      let call = 0;
      const fetch = async () =>
        call++ === 0
          ? new Response("{}", { status: 429, headers: { "retry-after": retryAfter, "content-type": "application/problem+json" } })
          : Response.json(successExample("readWidget"));
      // The longest wait is 1 s: 5 s read from the header is beyond it, so the 429 is answered as is.
      const api = createApiClient({
        baseUrl: "http://api.test/v1",
        apiKey: "ak_test",
        apiSecret: "as_test",
        fetch,
        timeoutMs: false,
        retry: { maxDelayMs: 1000, random: () => 0 },
      });
      return api.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } }).then((result) => ({ status: result.response.status, calls: call }));
    };
    expect(await calls("5s")).toEqual({ status: 200, calls: 2 });
    expect(await calls("5")).toEqual({ status: 429, calls: 1 });
  });
});
