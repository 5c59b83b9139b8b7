// `Retry-After` is delta-seconds or an HTTP date (RFC 9110 §10.2.3): `5s` is neither, so the
// client falls back to its own backoff instead of reading 5 seconds; nor are `1.5` or `-1`,
// which Date.parse took for dates in 2001. A mutant that dropped
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

  // Date.parse reads these as dates of 2001 (V8), which would have meant "retry at once".
  it.each(["1.5", "-1", "Nov 6 1994", "2026-11-27T10:00:00Z", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 6 Nov 1994 08:49:37 GMT"])(
    "%j is not an HTTP date: ignored",
    (value) => {
      expect(retryAfterMs(withRetryAfter(value))).toBeUndefined();
    },
  );

  it.each([
    ["Sun, 06 Nov 1994 08:49:40 GMT", 3000],
    ["Sunday, 06-Nov-94 08:49:40 GMT", 3000],
    ["Sun Nov  6 08:49:40 1994", 3000],
    ["Sun, 06 Nov 1994 08:49:30 GMT", 0],
  ])("the HTTP date %j is %d ms from 08:49:37", (value, ms) => {
    expect(retryAfterMs(withRetryAfter(value), Date.UTC(1994, 10, 6, 8, 49, 37))).toBe(ms);
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
