// Failed authentication is limited per client address, apart from the per-key limit: many
// different bogus keys from one address end in 429 with Retry-After, successful requests do
// not count towards it, a valid key from that address is still served, the count is exact
// under pipelining, and a counter that cannot count refuses the request.
import { connect } from "node:net";
import type { Store } from "express-rate-limit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultFailedAuthLimit, FailureMemoryStore } from "../../../server/middleware/failed-auth-limit.js";
import { ApiProblem } from "../../../server/problems.js";
import { appA, appB } from "../../support/demo.js";
import { problemOf, send, startHarness, type Harness } from "./harness.js";

let server: Harness | undefined;
afterEach(() => server?.close());

const read = (s: Harness, key: string) => send(s, { method: "GET", path: "/widgets/wgt_5a3c8e1f7b92" }, { authorization: `Bearer ${key}` });

it("is on by default at 60 per minute", () => {
  expect(defaultFailedAuthLimit).toEqual({ limit: 60, windowMs: 60_000 });
});

it("different bogus keys from one address: 401s up to the limit, then 429 with Retry-After for every further failure", async () => {
  server = await startHarness({ failedAuthLimit: { limit: 5, windowMs: 60_000 } });
  for (let i = 0; i < 5; i++) expect((await read(server, `ak_bogus_${i}`)).status).toBe(401);
  const limited = await read(server, "ak_bogus_5");
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(59);
  const problem = await problemOf(limited);
  expect(problem.code).toBe("rate_limited");
  expect(problem.detail).toBe("More than 5 failed authentications in 60 s from this address; retry after Retry-After seconds (valid credentials are still served).");
  expect((await read(server, "ak_bogus_6")).status).toBe(429);
});

it("a valid key from an address past its limit is still served: others' failures never lock it out", async () => {
  server = await startHarness({ failedAuthLimit: { limit: 3, windowMs: 60_000 } });
  for (let i = 0; i < 10; i++) await read(server, `ak_bogus_${i}`);
  expect((await read(server, "ak_bogus_x")).status).toBe(429);
  const served = await read(server, appA.apiKey);
  expect(served.status).toBe(200);
  expect((await read(server, "ak_bogus_y")).status).toBe(429);
});

/** `connections` sockets each pipelining `perConnection` bogus keys at once; the statuses answered. */
async function pipelined(port: number, connections: number, perConnection: number): Promise<number[]> {
  const statuses: number[] = [];
  await Promise.all(
    Array.from(
      { length: connections },
      (_, c) =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(port, "127.0.0.1");
          let text = "";
          socket.on("data", (chunk: Buffer) => {
            text += chunk.toString("latin1");
            if ((text.match(/HTTP\/1\.1 \d{3} /g) ?? []).length === perConnection) socket.end();
          });
          socket.on("error", reject);
          socket.on("close", () => {
            statuses.push(...[...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1])));
            resolve();
          });
          socket.write(
            Array.from(
              { length: perConnection },
              (_, i) => `GET /v1/widgets/wgt_5a3c8e1f7b92 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ak_bogus_${c}_${i}\r\n\r\n`,
            ).join(""),
          );
        }),
    ),
  );
  return statuses;
}

it("pipelined failures on many connections at once get no more 401s than the limit", async () => {
  server = await startHarness({ rateLimit: false, failedAuthLimit: { limit: 5, windowMs: 60_000 } });
  const statuses = await pipelined(Number(new URL(server.url).port), 8, 10);
  expect(statuses).toHaveLength(80);
  expect(statuses.filter((s) => s === 401)).toHaveLength(5);
  expect(statuses.filter((s) => s === 429)).toHaveLength(75);
});

it("a failure that cannot be counted is refused, not answered 401 as if it had been", async () => {
  const store = new FailureMemoryStore();
  store.increment = async () => {
    throw new Error("counter out of reach");
  };
  server = await startHarness({ failedAuthLimit: { limit: 5, windowMs: 60_000, store } });
  const answer = await read(server, "ak_bogus_0");
  expect(answer.status).toBe(500);
  expect((await problemOf(answer)).code).toBe("internal_error");
  expect((await read(server, appA.apiKey)).status).toBe(200);
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

it("the in-memory counters start a new window once the old one is over", async () => {
  const store = new FailureMemoryStore();
  store.init({ windowMs: 50 });
  expect((await store.increment("a")).totalHits).toBe(1);
  expect((await store.increment("a")).totalHits).toBe(2);
  await new Promise((resolve) => setTimeout(resolve, 60));
  expect(await store.get("a")).toBeUndefined();
  expect((await store.increment("a")).totalHits).toBe(1);
});

it("counts only failed authentication: other errors of a client pass as they are", async () => {
  server = await startHarness({ rateLimit: false, failedAuthLimit: { limit: 1, windowMs: 60_000 } });
  // Another application's widget: 404, three times, never 429.
  for (let i = 0; i < 3; i++) expect((await read(server, appB.apiKey)).status).toBe(404);
});

it("a counter out of reach with its own problem (the database's 503) answers that problem", async () => {
  const store = new FailureMemoryStore();
  store.increment = async () => {
    throw new ApiProblem("service_unavailable", "The database is out of reach; retry later.");
  };
  server = await startHarness({ failedAuthLimit: { limit: 5, windowMs: 60_000, store } });
  const answer = await read(server, "ak_bogus_0");
  expect(answer.status).toBe(503);
  expect((await problemOf(answer)).code).toBe("service_unavailable");
});

describe("a store given", () => {
  /** A store whose every count is past the limit, with the reset time it says; no `init` (optional in express-rate-limit's Store). */
  const pastLimit = (resetTime: () => Date | undefined): Store => ({
    increment: async () => ({ totalHits: 7, resetTime: resetTime() }),
    decrement: async () => undefined,
    resetKey: async () => undefined,
  });

  it("Retry-After is the seconds to the store's reset time, rounded up", async () => {
    server = await startHarness({ failedAuthLimit: { limit: 5, windowMs: 60_000, store: pastLimit(() => new Date(Date.now() + 4_500)) } });
    const limited = await read(server, "ak_bogus_0");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("5");
  });

  it("without a reset time, Retry-After is the window", async () => {
    server = await startHarness({ failedAuthLimit: { limit: 5, windowMs: 60_000, store: pastLimit(() => undefined) } });
    const limited = await read(server, "ak_bogus_0");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
  });
});

// FailureMemoryStore as express-rate-limit's Store, on a clock the test sets.
describe("FailureMemoryStore", () => {
  const start = Date.UTC(2026, 10, 27, 12);
  const storeAt = (windowMs: number) => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    const store = new FailureMemoryStore();
    store.init({ windowMs });
    return store;
  };
  afterEach(() => {
    vi.useRealTimers();
  });

  it("get answers a live counter, and nothing from its reset time on", async () => {
    const store = storeAt(1_000);
    await store.increment("a");
    await store.increment("a");
    expect(await store.get("a")).toEqual({ totalHits: 2, resetTime: new Date(start + 1_000) });
    vi.setSystemTime(start + 1_000);
    expect(await store.get("a")).toBeUndefined();
  });

  it("decrement takes one hit back, never below zero, and ignores an unknown key", async () => {
    const store = storeAt(1_000);
    await store.increment("a");
    await store.increment("a");
    await store.decrement("a");
    expect((await store.get("a"))?.totalHits).toBe(1);
    await store.decrement("a");
    await store.decrement("a");
    expect((await store.get("a"))?.totalHits).toBe(0);
    await expect(store.decrement("b")).resolves.toBeUndefined();
  });

  it("resetKey forgets the key's counter", async () => {
    const store = storeAt(1_000);
    await store.increment("a");
    await store.resetKey("a");
    expect(await store.get("a")).toBeUndefined();
    expect((await store.increment("a")).totalHits).toBe(1);
  });

  it("sweeping expired counters leaves the live ones counting", async () => {
    const store = storeAt(1_000);
    await store.increment("old");
    vi.setSystemTime(start + 500);
    await store.increment("live");
    // A window after the first count: the sweep runs and "old" is over, "live" is not.
    vi.setSystemTime(start + 1_000);
    await store.increment("other");
    expect((await store.increment("live")).totalHits).toBe(2);
  });

  it("a clock set back ends each window at its own reset time, sweep or not", async () => {
    const store = storeAt(1_000);
    await store.increment("a");
    // The clock steps back 5 s (an NTP correction): the next sweep is 6 s away.
    vi.setSystemTime(start - 5_000);
    await store.increment("b");
    vi.setSystemTime(start - 4_000);
    expect((await store.increment("b")).totalHits).toBe(1);
  });
});
