// The per-key cap on requests in flight: past it a 429 with Retry-After at once, another
// key is unaffected, and a slot frees when its response ends.
import { afterEach, expect, it } from "vitest";
import { defaultConcurrencyLimit } from "../../../server/http/concurrency-limit.js";
import { createHandlers } from "../../../server/handlers/index.js";
import type { Handlers } from "../../../server/express/contract.js";
import { loadSeed } from "../../../server/seed/load.js";
import { createStore } from "../../../server/store/memory.js";
import { appA, appB } from "../../support/demo.js";
import { problemOf, send, startHarness, type Harness } from "./harness.js";

let server: Harness | undefined;
afterEach(() => server?.close());

const read = (s: Harness, key: string) => send(s, { method: "GET", path: "/widgets/wgt_5a3c8e1f7b92" }, { authorization: `Bearer ${key}` });

it("is on by default", () => {
  expect(defaultConcurrencyLimit).toBe(16);
});

it("past the cap a key gets 429 with Retry-After; another key and later requests are served", async () => {
  const store = createStore(loadSeed());
  const real = createHandlers({ store, clock: () => new Date() }).readWidget;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let started = 0;
  let bothStarted!: () => void;
  const twoInFlight = new Promise<void>((resolve) => (bothStarted = resolve));
  const slowRead: Handlers["readWidget"] = async (input) => {
    if (input.caller.applicationId === appA.applicationId) {
      if (++started === 2) bothStarted();
      await held;
    }
    return real(input);
  };
  server = await startHarness({ store, rateLimit: false, concurrencyLimit: 2, handlers: { readWidget: slowRead } });
  const first = [read(server, appA.apiKey), read(server, appA.apiKey)];
  await twoInFlight;
  const third = await read(server, appA.apiKey);
  expect(third.status).toBe(429);
  expect(third.headers.get("retry-after")).toBe("1");
  // The document requires the RateLimit fields on every 429: the refusing policy's.
  expect(third.headers.get("ratelimit-policy")).toBe('"concurrency"; q=2; qu="concurrent-requests"');
  expect(third.headers.get("ratelimit")).toBe('"concurrency"; r=0; t=1');
  expect((await problemOf(third)).detail).toMatch(/in flight/);
  // Another application's key has its own slots (its widget id is A's: a 404, not a 429).
  expect((await read(server, appB.apiKey)).status).toBe(404);
  release();
  expect((await Promise.all(first)).map((r) => r.status)).toEqual([200, 200]);
  expect((await read(server, appA.apiKey)).status).toBe(200);
});

it("can be turned off", async () => {
  server = await startHarness({ rateLimit: false, concurrencyLimit: false });
  const statuses = await Promise.all(Array.from({ length: 40 }, () => read(server!, appA.apiKey).then((r) => r.status)));
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
});

it("an address past its in-flight share waits its turn instead of being refused", async () => {
  const store = createStore(loadSeed());
  const real = createHandlers({ store, clock: () => new Date() }).readWidget;
  const releases: (() => void)[] = [];
  let reached = 0;
  let twoReached!: () => void;
  const two = new Promise<void>((resolve) => (twoReached = resolve));
  const heldRead: Handlers["readWidget"] = async (input) => {
    if (++reached === 2) twoReached();
    await new Promise<void>((resolve) => releases.push(resolve));
    return real(input);
  };
  server = await startHarness({ store, rateLimit: false, addressInFlight: 2, handlers: { readWidget: heldRead } });
  const answers = Promise.all([read(server, appA.apiKey), read(server, appA.apiKey), read(server, appB.apiKey)]);
  await two;
  // The third request waits in the queue: it has not reached its handler.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(reached).toBe(2);
  releases.shift()!();
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => reached === 3 && (clearInterval(poll), resolve()), 10);
  });
  while (releases.length > 0) releases.shift()!();
  expect((await answers).map((r) => r.status).sort()).toEqual([200, 200, 404]);
});
