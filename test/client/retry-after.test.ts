// `Retry-After` is delta-seconds or an HTTP date (RFC 9110 §10.2.3): `5s` is neither, so the
// client falls back to its own backoff instead of reading 5 seconds. A mutant that dropped
// the end anchor of the delta-seconds pattern read `5s` as 5 and survived the retry tests.
import { describe, expect, it } from "vitest";
import { createApiClient, retryAfterMs } from "../../client/index.js";
import { successExample } from "../support/document.js";

/** 10:00:00 GMT on 27 November 2026, the clock of the HTTP-date cases. */
const now = Date.UTC(2026, 10, 27, 10, 0, 0);
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

  // Date.parse read each of these as some instant (V8: `1.5` is 2001-01-05, `-1` 2001-01-01),
  // so the client retried at once instead of backing off.
  it.each(["1.5", "-1", "+5", "2026-11-27T10:00:00Z", "Nov 27 2026", "Fri, 27 Nov 2026 10:00:00 +0000", "Tue, 31 Feb 2026 10:00:00 GMT"])(
    "%j is neither delta-seconds nor an HTTP-date: unreadable",
    (value) => {
      expect(retryAfterMs(withRetryAfter(value), now)).toBeUndefined();
    },
  );

  // RFC 9110 §5.6.7: a recipient accepts the IMF-fixdate and both obsolete forms, all in GMT.
  it.each([
    ["Fri, 27 Nov 2026 10:00:05 GMT", 5000],
    ["Friday, 27-Nov-26 10:00:05 GMT", 5000],
    ["Fri Nov 27 10:00:05 2026", 5000],
    ["Fri Nov  6 10:00:05 2026", 0],
    ["Fri, 27 Nov 2026 09:00:00 GMT", 0],
  ])("the HTTP-date %j is %d ms away", (value, ms) => {
    expect(retryAfterMs(withRetryAfter(value), now)).toBe(ms);
  });

  // A month missing from the pattern made every date in it unreadable (a mutant emptied six of them).
  it.each(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map((name, index) => [name, index]))(
    "a date in %s is read, in each of the three forms",
    (name, index) => {
      const at = Date.UTC(2026, index as number, 10, 10, 0, 5);
      const weekday = new Date(at).toUTCString().slice(0, 3);
      const long = { Mon: "Monday", Tue: "Tuesday", Wed: "Wednesday", Thu: "Thursday", Fri: "Friday", Sat: "Saturday", Sun: "Sunday" }[weekday];
      for (const value of [`${weekday}, 10 ${name} 2026 10:00:05 GMT`, `${long}, 10-${name}-26 10:00:05 GMT`, `${weekday} ${name} 10 10:00:05 2026`]) {
        expect(retryAfterMs(withRetryAfter(value), at - 5000), value).toBe(5000);
      }
    },
  );

  // RFC 9110 §5.6.7: a two-digit year more than 50 years ahead is in the past century. In 2026,
  // `76` is 2076 (exactly 50 years ahead) and `77` is 1977, `94` 1994 (passed: no wait).
  it.each([
    ["Friday, 27-Nov-76 10:00:00 GMT", Date.UTC(2076, 10, 27, 10) - now],
    ["Saturday, 27-Nov-77 10:00:00 GMT", 0],
    ["Sunday, 06-Nov-94 08:49:37 GMT", 0],
    ["Saturday, 27-Nov-27 10:00:00 GMT", Date.UTC(2027, 10, 27, 10) - now],
  ])("the RFC 850 date %j is %d ms away", (value, ms) => {
    expect(retryAfterMs(withRetryAfter(value), now)).toBe(ms);
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
