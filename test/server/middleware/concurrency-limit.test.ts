// The per-key cap on requests in flight: past it a 429 with Retry-After at once, another
// key is unaffected, and a slot frees when its response ends.
import { once } from "node:events";
import { request as httpRequest, type Server } from "node:http";
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addressQueue, concurrencyLimiter, defaultConcurrencyLimit } from "../../../server/middleware/concurrency-limit.js";
import { createHandlers } from "../../../server/handlers/index.js";
import type { Handlers } from "../../../server/contract-layer/contract.js";
import { loadSeed } from "../../../server/seed/load.js";
import { createStore } from "../../../server/store/memory.js";
import { appA, appB } from "../../support/demo.js";
import { getFrom, problemOf, send, startHarness, type Harness } from "./harness.js";

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

describe("the limits' settings", () => {
  it.each([0, -1, 1.5])("%j is refused, with the option's name", (limit) => {
    expect(() => concurrencyLimiter(limit)).toThrow(new Error(`concurrencyLimit must be a positive integer or false, got ${limit}`));
    expect(() => addressQueue(limit, false)).toThrow(new Error(`addressInFlight must be a positive integer or false, got ${limit}`));
  });

  it("1 is taken", () => {
    expect(concurrencyLimiter(1)).toBeTypeOf("function");
    expect(addressQueue(1, false)).toBeTypeOf("function");
  });
});

/** One limiter in front of two routes: `/` answers at once, `/hold` when the test ends its response. */
async function limitedApp(limiter: RequestHandler) {
  const arrived: Request[] = [];
  const held: Response[] = [];
  const app = express();
  app.use((req, _res, next) => {
    arrived.push(req);
    next();
  });
  app.use(limiter);
  app.get("/hold", (_req, res) => void held.push(res));
  app.get("/", (_req, res) => void res.end("ok"));
  const refusal: ErrorRequestHandler = (error: { status?: number }, _req, res, _next) => void res.status(error.status ?? 500).end();
  app.use(refusal);
  const listening: Server = app.listen(0, "127.0.0.1");
  await once(listening, "listening");
  const { port } = listening.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, arrived, held, close: () => (listening.closeAllConnections(), listening.close()) };
}

describe("slots and queues", () => {
  /** How long a request may take to reach the app on a loaded machine (polled, not timed). */
  const arrival = { timeout: 10_000, interval: 10 };
  let app: Awaited<ReturnType<typeof limitedApp>> | undefined;
  afterEach(() => {
    app?.close();
    app = undefined;
  });

  it("a client gone while waiting passes its turn on: the next request is served, not refused", async () => {
    app = await limitedApp(concurrencyLimiter(1, 5_000));
    const first = getFrom(app, "/hold", "127.0.0.1");
    await vi.waitFor(() => expect(app!.held).toHaveLength(1), arrival);
    const gone = httpRequest(`${app.url}/`, { agent: false });
    gone.on("error", () => undefined);
    gone.end();
    await vi.waitFor(() => expect(app!.arrived).toHaveLength(2), arrival);
    const left = once(app.arrived[1]!.socket, "close");
    gone.destroy();
    await left;
    app.held[0]!.end("done");
    expect((await first).status).toBe(200);
    // With its slot kept by the gone client, this one would wait out the 5 s and get a 429.
    expect((await getFrom(app, "/", "127.0.0.1")).status).toBe(200);
  });

  it("each client address has a queue of its own", async () => {
    app = await limitedApp(addressQueue(1, false));
    const first = getFrom(app, "/hold", "127.0.0.2");
    await vi.waitFor(() => expect(app!.held).toHaveLength(1), arrival);
    // Bounds the wait if 127.0.0.3 were queued behind 127.0.0.2.
    const fallback = setTimeout(() => app?.held[0]?.end(), 5_000);
    expect((await getFrom(app, "/", "127.0.0.3")).status).toBe(200);
    expect(app.held[0]!.writableEnded).toBe(false);
    clearTimeout(fallback);
    app.held[0]!.end();
    expect((await first).status).toBe(200);
  });
});
