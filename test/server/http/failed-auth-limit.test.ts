// Failed authentication is limited per client address, apart from the per-key limit: many
// different bogus keys from one address end in 429 with Retry-After, and successful requests
// do not count towards it.
import { afterEach, expect, it } from "vitest";
import { defaultFailedAuthLimit } from "../../../server/http/failed-auth-limit.js";
import { appA } from "../../support/demo.js";
import { problemOf, send, startHarness, type Harness } from "./harness.js";

let server: Harness | undefined;
afterEach(() => server?.close());

const read = (s: Harness, key: string) => send(s, { method: "GET", path: "/widgets/wgt_5a3c8e1f7b92" }, { authorization: `Bearer ${key}` });

it("is on by default at 60 per minute", () => {
  expect(defaultFailedAuthLimit).toEqual({ limit: 60, windowMs: 60_000 });
});

it("different bogus keys from one address: 401s up to the limit, then 429 with Retry-After for every request", async () => {
  server = await startHarness({ failedAuthLimit: { limit: 5, windowMs: 60_000 } });
  for (let i = 0; i < 5; i++) expect((await read(server, `ak_bogus_${i}`)).status).toBe(401);
  const limited = await read(server, "ak_bogus_5");
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(59);
  const problem = await problemOf(limited);
  expect(problem.code).toBe("rate_limited");
  expect(problem.detail).toMatch(/failed authentications/);
  expect((await read(server, appA.apiKey)).status).toBe(429);
});

it("successful requests do not count", async () => {
  server = await startHarness({ failedAuthLimit: { limit: 5, windowMs: 60_000 } });
  for (let i = 0; i < 20; i++) expect((await read(server, appA.apiKey)).status).toBe(200);
  for (let i = 0; i < 5; i++) expect((await read(server, `ak_bogus_${i}`)).status).toBe(401);
});

it("can be turned off", async () => {
  server = await startHarness({ failedAuthLimit: false });
  for (let i = 0; i < 70; i++) expect((await read(server, `ak_bogus_${i}`)).status).toBe(401);
});

it("many concurrent good requests from one address are not counted", async () => {
  server = await startHarness({ rateLimit: false, failedAuthLimit: { limit: 5, windowMs: 60_000 } });
  const statuses = await Promise.all(Array.from({ length: 50 }, () => read(server!, appA.apiKey).then((r) => r.status)));
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
});
