// The mock is a test double: by default it throttles nothing (a parallel suite on one demo key
// and a suite of 401 cases see no 429 they did not ask for), and a test that wants the
// server's limits turns them on (`rateLimit`, `failedAuthLimit`; on the command line
// `--rate-limit`, `--failed-auth-limit` or RATE_LIMIT, FAILED_AUTH_LIMIT).
import { afterEach, describe, expect, it } from "vitest";
import { startMock, type MockOptions, type RunningMock } from "../../mock/index.js";
import { defaultFailedAuthLimit } from "../../server/middleware/failed-auth-limit.js";
import { defaultRateLimit } from "../../server/middleware/rate-limit.js";
import { appA } from "../support/demo.js";

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** `count` GETs of the widget with `apiKey`, `parallel` at a time: the count of each status. */
async function statuses(options: MockOptions, count: number, apiKey: string, parallel = 8): Promise<Record<number, number>> {
  mock = await startMock(options);
  const url = `${mock.url}/widgets/wgt_5a3c8e1f7b92`;
  const counts: Record<number, number> = {};
  let sent = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (sent < count) {
        sent++;
        const response = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
        await response.arrayBuffer();
        counts[response.status] = (counts[response.status] ?? 0) + 1;
      }
    }),
  );
  return counts;
}

// The first test sends 620 requests through the mock: 50 s and 103 s in two runs at load 20
// on two cores (a few seconds idle), past the suite's 30 s; its own timeout leaves room.
describe("the mock's limits", { timeout: 240_000 }, () => {
  it(`by default, more requests on one key than the server's limit (${defaultRateLimit.limit}/min) are all answered`, async () => {
    expect(await statuses({}, defaultRateLimit.limit + 20, appA.apiKey)).toEqual({ 200: defaultRateLimit.limit + 20 });
  });

  it(`by default, more bad keys than the server's failed-authentication limit (${defaultFailedAuthLimit.limit}/min) are all 401`, async () => {
    expect(await statuses({}, defaultFailedAuthLimit.limit + 10, "ak_live_wrong_key")).toEqual({ 401: defaultFailedAuthLimit.limit + 10 });
  });

  it("rateLimit turns the per-key limit on: past it, the server's 429 with Retry-After and RateLimit headers", async () => {
    expect(await statuses({ rateLimit: { limit: 5, windowMs: 60_000 } }, 8, appA.apiKey, 1)).toEqual({ 200: 5, 429: 3 });
    const response = await fetch(`${mock!.url}/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization: `Bearer ${appA.apiKey}` } });
    expect(await response.json()).toMatchObject({ code: "rate_limited" });
    expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(response.headers.get("ratelimit")).toMatch(/r=0;/);
  });

  it("failedAuthLimit turns the failed-authentication limit on", async () => {
    expect(await statuses({ failedAuthLimit: { limit: 3, windowMs: 60_000 } }, 5, "ak_live_wrong_key", 1)).toEqual({ 401: 3, 429: 2 });
  });
});
