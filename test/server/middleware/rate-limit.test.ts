// Rate limiting per API key: each key has its own quota, so one application spending its
// quota leaves another's untouched; IETF draft-8 RateLimit headers on every response under
// /v1; a 429 problem with Retry-After past the quota; `rateLimit: false` turns it off (the
// headers then state an unlimited policy).
import type { Store } from "express-rate-limit";
import { afterEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../../../server/crypto/hash.js";
import { getFrom, problemOf, startHarness, type Harness } from "./harness.js";
import { appA, appB } from "../../support/demo.js";

let server: Harness | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const asAcme = { authorization: `Bearer ${appA.apiKey}` };
const asGlobex = { authorization: `Bearer ${appB.apiKey}` };
const webhooks = (headers: Record<string, string>) => fetch(`${server!.url}/webhooks`, { headers });

describe("rate limit", () => {
  it("sends the IETF RateLimit and RateLimit-Policy headers", async () => {
    server = await startHarness({ rateLimit: { limit: 5, windowMs: 60_000 } });
    const response = await webhooks(asAcme);
    expect(response.headers.get("ratelimit")).toMatch(/^"default"; r=4; t=\d+$/);
    expect(response.headers.get("ratelimit-policy")).toMatch(/^"default"; q=5; w=60; pk=:[A-Za-z0-9+/=]+:$/);
    // Only the draft's fields: no X-RateLimit-* of the library's legacy form beside them.
    expect([...response.headers.keys()].filter((name) => name.startsWith("x-ratelimit"))).toEqual([]);
  });

  it("answers 429 rate_limited with Retry-After once the key's quota is spent", async () => {
    server = await startHarness({ rateLimit: { limit: 3, windowMs: 30_000 } });
    for (let i = 0; i < 3; i++) expect((await webhooks(asAcme)).status).toBe(200);
    const response = await webhooks(asAcme);
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(response.headers.get("ratelimit")).toMatch(/r=0/);
    const problem = await problemOf(response);
    expect(problem.code).toBe("rate_limited");
    expect(problem.detail).toBe("More than 3 requests in 30 s for this API key; retry after Retry-After seconds.");
  });

  it("counts per key: one application exhausting its quota does not limit another", async () => {
    server = await startHarness({ rateLimit: { limit: 3, windowMs: 60_000 } });
    for (let i = 0; i < 4; i++) await webhooks(asAcme);
    expect((await webhooks(asAcme)).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await webhooks(asGlobex)).status).toBe(200);
    expect((await webhooks(asGlobex)).status).toBe(429);
  });

  it("counts a key the same on both schemes (X-Api-Key shares the bearer quota)", async () => {
    server = await startHarness({ rateLimit: { limit: 2, windowMs: 60_000 } });
    await webhooks(asAcme);
    await webhooks(asAcme);
    const response = await fetch(`${server.url}/notifications`, {
      method: "POST",
      headers: { "x-api-key": appA.apiKey, "x-api-secret": appA.apiSecret, "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(429);
  });

  it("limits unknown keys too, each on its own", async () => {
    server = await startHarness({ rateLimit: { limit: 1, windowMs: 60_000 } });
    expect((await webhooks({ authorization: "Bearer ak_guess_1" })).status).toBe(401);
    expect((await webhooks({ authorization: "Bearer ak_guess_1" })).status).toBe(429);
    expect((await webhooks(asAcme)).status).toBe(200);
  });

  it("counts requests without a key per client address", async () => {
    server = await startHarness({ rateLimit: { limit: 1, windowMs: 60_000 } });
    expect((await getFrom(server, "/webhooks", "127.0.0.2")).status).toBe(401);
    expect((await getFrom(server, "/webhooks", "127.0.0.2")).status).toBe(429);
    expect((await getFrom(server, "/webhooks", "127.0.0.3")).status).toBe(401);
  });

  it("takes the count from the store it is given: one shared with other processes refuses at once", async () => {
    const keys: string[] = [];
    const store: Store = {
      increment: async (key) => {
        keys.push(key);
        return { totalHits: 11, resetTime: new Date(Date.now() + 60_000) };
      },
      decrement: async () => undefined,
      resetKey: async () => undefined,
    };
    server = await startHarness({ rateLimit: { limit: 10, windowMs: 60_000, store } });
    expect((await webhooks(asAcme)).status).toBe(429);
    expect(keys).toEqual([`key:${sha256Hex(appA.apiKey)}`]);
  });

  it("is off with rateLimit: false", async () => {
    server = await startHarness({ rateLimit: false });
    const responses = await Promise.all(Array.from({ length: 20 }, () => webhooks(asAcme)));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    // The document requires the fields on every answer: they state that nothing is limited.
    expect(responses[0]!.headers.get("ratelimit")).toBe('"unlimited"; r=999999999999999');
    expect(responses[0]!.headers.get("ratelimit-policy")).toBe('"unlimited"; q=999999999999999');
  });
});
