// Failed authentication is limited per client address, apart from the per-key limit: many
// different bogus keys from one address end in 429 with Retry-After, successful requests do
// not count towards it, a valid key from that address is still served, the count is exact
// under pipelining, and a counter that cannot count refuses the request.
import { connect } from "node:net";
import { afterEach, expect, it } from "vitest";
import { defaultFailedAuthLimit, FailureMemoryStore } from "../../../server/http/failed-auth-limit.js";
import { appA } from "../../support/demo.js";
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
  expect(problem.detail).toMatch(/failed authentications/);
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
