// The contract app inside a host Express service (test/express-entry/host/service.ts): `/api/v1/...`
// is validated and served, the host's own routes before and after it are the host's,
// malformed JSON from the host's `express.json()` is the document's 400 problem, a missing
// handler answers 501 on opt-in, handlers read headers and the host's context, a body the
// host reads itself gets its `100 Continue` under listen(), and SIGTERM
// under load finishes every in-flight request with `Connection: close`, then exits 0.
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContractApp, listen, type Listening } from "../../server/contract-layer/index.js";
import { createHandlers } from "../../server/handlers/index.js";
import { loadSeed } from "../../server/seed/load.js";
import { createStore } from "../../server/store/memory.js";
import type { operations } from "../../generated/schema.js";
import { appA } from "../support/demo.js";
import { exchange } from "../support/raw-exchange.js";
import { hostApp } from "./host/service.js";

const bearer = { authorization: `Bearer ${appA.apiKey}` };
const running: Listening[] = [];
afterAll(() => Promise.all(running.map((server) => server.close())));

async function serve(app: express.Express): Promise<string> {
  const server = await listen(app, { closeTimeoutMs: 100 });
  running.push(server);
  return server.origin;
}

describe("a host app with express.json() and the contract app at /api", () => {
  let origin: string;
  beforeAll(async () => {
    origin = await serve(hostApp());
  });

  // listen() holds `100 Continue` back until the API's credentials passed; a body the host
  // reads itself must still get it at once, or its client waits out its own timeout (curl: 1 s).
  it("Expect: 100-continue on the host's routes, before and after the API: 100 Continue, then the answer", async () => {
    const body = JSON.stringify({ hello: "host" });
    const before = await exchange(
      origin,
      `POST /echo HTTP/1.1\nHost: localhost\nContent-Type: application/json\nContent-Length: ${body.length}\nExpect: 100-continue\nConnection: close\n`,
      { body, timeoutMs: 3_000 },
    );
    expect(before.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    expect(before.text).toContain('{"echoed":{"hello":"host"}}');
    const after = await exchange(origin, "POST /note HTTP/1.1\nHost: localhost\nContent-Type: text/plain\nContent-Length: 5\nExpect: 100-continue\nConnection: close\n", {
      body: "hello",
      timeoutMs: 3_000,
    });
    expect(after.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    expect(after.text).toContain("noted: hello");
  });

  // Express's 404 and body-parser's refusal by Content-Length wait for the body's end before
  // they answer: without 100 Continue such a request would hang until its timeout.
  it("Expect: 100-continue on a body only thrown away (no route: Express's 404; over the host parser's limit): 100 Continue, then the answer", async () => {
    const head = (path: string, type: string, length: number) =>
      `POST ${path} HTTP/1.1\nHost: localhost\nContent-Type: ${type}\nContent-Length: ${length}\nExpect: 100-continue\nConnection: close\n`;
    const unknown = await exchange(origin, head("/nope", "text/plain", 5), { body: "hello", timeoutMs: 3_000 });
    expect(unknown.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 404 /);
    const tooLarge = await exchange(origin, head("/echo", "application/json", 200_000), { body: `{"a":"${"x".repeat(199_992)}"}`, timeoutMs: 3_000 });
    expect(tooLarge.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 413 /);
  });

  it("Expect: 100-continue on a route that answers before it reads: no 100 Continue inside the answer", async () => {
    const { text } = await exchange(origin, "POST /stream HTTP/1.1\nHost: localhost\nContent-Type: application/octet-stream\nContent-Length: 5\nExpect: 100-continue\n", {
      body: "hello",
      readForMs: 500,
    });
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).not.toContain("100 Continue");
  });

  it("serves and validates /api/v1/...", async () => {
    const ok = await fetch(`${origin}/api/v1/webhooks`, { headers: bearer });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { type: string }).type).toBe("api.application.webhook.find");
    const bad = await fetch(`${origin}/api/v1/webhooks?limit=101`, { headers: bearer });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { instance: string }).instance).toBe("/api/v1/webhooks");
  });

  it("leaves the host's routes before and after it to the host, without the API's headers", async () => {
    const health = await fetch(`${origin}/health`);
    expect(await health.json()).toEqual({ ok: true });
    const other = await fetch(`${origin}/other`);
    expect(await other.text()).toBe("the host's own route");
    expect(other.headers.get("x-request-id")).toBeNull();
    // A path under /api the document does not know is the host's too (Express's 404).
    const unknown = await fetch(`${origin}/api/v1/nothing`, { headers: bearer });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).not.toMatch(/problem/);
  });

  it("answers malformed JSON read by the host's parser with the document's 400 problem", async () => {
    const response = await fetch(`${origin}/api/v1/sms/providers/sms_2c7e9b4f1a6d`, {
      method: "PUT",
      headers: { ...bearer, "content-type": "application/json" },
      body: '{"is_default": tru',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    const problem = (await response.json()) as { code: string; instance: string };
    expect(problem).toMatchObject({ code: "malformed_json", instance: "/api/v1/sms/providers/sms_2c7e9b4f1a6d" });
    expect(response.headers.get("x-request-id")).toBeTruthy();
    // The host's own route keeps the host's error page.
    const host = await fetch(`${origin}/echo`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(host.headers.get("content-type")).toMatch(/text\/html/);
  });

  it("validates a body the host parsed as is", async () => {
    const response = await fetch(`${origin}/api/v1/sms/providers/sms_2c7e9b4f1a6d`, {
      method: "PUT",
      headers: { ...bearer, "content-type": "application/json" },
      body: JSON.stringify({ colour: "red" }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe("validation_failed");
  });
});

describe("options of the entry", () => {
  const store = createStore(loadSeed());
  const handlers = createHandlers({ store, clock: () => new Date() });

  it('a host parser\'s own body limit in front (express.json({ limit: "1kb" })): the 413 problem names that limit', async () => {
    const origin = await serve(
      express()
        .use(express.json({ limit: "1kb" }))
        .use(createContractApp({ handlers, authenticate: store })),
    );
    const response = await fetch(`${origin}/v1/sms/providers/sms_2c7e9b4f1a6d`, {
      method: "PUT",
      headers: { ...bearer, "content-type": "application/json" },
      body: JSON.stringify({ name: "x".repeat(2_000) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "payload_too_large", detail: "The request body is larger than 1 kB." });
  });

  it("basePath serves the operations under another path at the root", async () => {
    const origin = await serve(express().use(createContractApp({ handlers, authenticate: store, basePath: "/api/v1" })));
    expect((await fetch(`${origin}/api/v1/webhooks`, { headers: bearer })).status).toBe(200);
    expect((await fetch(`${origin}/v1/webhooks`, { headers: bearer })).status).toBe(404);
  });

  it('unmatched: "problem" answers unknown paths with the 404 problem', async () => {
    const origin = await serve(express().use(createContractApp({ handlers, authenticate: store, unmatched: "problem" })));
    const response = await fetch(`${origin}/nothing`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { code: string }).code).toBe("not_found");
  });

  it('missingHandlers: "not_implemented" answers 501 after the credentials, lists them once; the default refuses', async () => {
    const { findWebhooks: _left, ...eight } = handlers;
    expect(() => createContractApp({ handlers: eight as never, authenticate: store })).toThrow(/no handler for findWebhooks/);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("warning", onWarning);
    const app = createContractApp({ handlers: eight, authenticate: store, missingHandlers: "not_implemented" });
    await new Promise((resolve) => setImmediate(resolve));
    process.off("warning", onWarning);
    expect(warnings).toEqual(["1 operation answer 501 not_implemented (no handler yet): findWebhooks (GET /webhooks)."]);
    const origin = await serve(express().use(app));
    expect((await fetch(`${origin}/v1/webhooks`)).status).toBe(401);
    const response = await fetch(`${origin}/v1/webhooks`, { headers: bearer });
    expect(response.status).toBe(501);
    expect(await response.json()).toMatchObject({ code: "not_implemented", status: 501, detail: "GET /webhooks is documented but not implemented by this service yet." });
  });

  it("handlers read the headers (credentials left out, frozen) and the host's context", async () => {
    const seen: unknown[] = [];
    const app = express();
    app.use((_req, res, next) => {
      res.locals.tenant = "acme";
      next();
    });
    app.use(
      createContractApp<operations, { tenant: string }>({
        handlers: Object.fromEntries(
          Object.entries(handlers).map(([id, handler]) => [
            id,
            (input: { headers: object; context: { tenant: string } }) => {
              seen.push({ headers: input.headers, context: input.context, frozen: Object.isFrozen(input.headers) });
              return (handler as (i: unknown) => unknown)(input);
            },
          ]),
        ) as never,
        authenticate: store,
        context: (_req, res) => ({ tenant: res.locals.tenant as string }),
      }),
    );
    const origin = await serve(app);
    expect((await fetch(`${origin}/v1/webhooks`, { headers: { ...bearer, "x-trace": "t-1" } })).status).toBe(200);
    expect(seen).toEqual([{ headers: expect.objectContaining({ "x-trace": "t-1" }), context: { tenant: "acme" }, frozen: true }]);
    expect((seen[0] as { headers: object }).headers).not.toHaveProperty("authorization");
  });
});

/** test/express-entry/host/service.ts in its own process, each request to /webhooks held `slowMs`; `seen` waits for its output to match. */
async function hostProcess(slowMs: number, drainDelayMs = 0) {
  const child = spawn(process.execPath, ["--import", "tsx", "test/express-entry/host/service.ts"], {
    env: { ...process.env, SLOW_MS: String(slowMs), DRAIN_DELAY_MS: String(drainDelayMs) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const seen = (match: (stdout: string) => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => match(stdout) && resolve();
      child.stdout.on("data", check);
      check();
      void exited.then(() => reject(new Error(`exited first: ${stdout}`)));
    });
  await seen((out) => /listening on \S+/.test(out));
  return { child, exited, seen, url: /listening on (\S+)/.exec(stdout)![1]!, stdout: () => stdout };
}

describe("SIGTERM under load", () => {
  it("answers every in-flight request whole with Connection: close, then exits 0", async () => {
    const { child, exited, seen, url, stdout } = await hostProcess(3000);
    const inFlight = Array.from({ length: 20 }, () => fetch(`${url}/webhooks`, { headers: bearer }));
    // Signalled once all 20 are inside the handler: a fixed wait let a loaded machine signal
    // before some requests had even arrived, whose connections the drain then rightly closed.
    await seen((out) => (out.match(/^in handler$/gm) ?? []).length === 20);
    child.kill("SIGTERM");
    const answers = await Promise.all(inFlight);
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.every((a) => a.headers.get("connection") === "close")).toBe(true);
    for (const answer of answers) expect(((await answer.json()) as { type: string }).type).toBe("api.application.webhook.find");
    expect(await exited).toBe(0);
    expect(stdout()).toMatch(/SIGTERM: draining\nclosed\n$/);
  }, 60_000);

  it("a second signal during the drain exits 1 at once, not after the drain's 10 s", async () => {
    const { child, exited, seen, url, stdout } = await hostProcess(30_000);
    const stuck = fetch(`${url}/webhooks`, { headers: bearer }).catch(() => "cut");
    await seen((out) => /^in handler$/m.test(out));
    child.kill("SIGTERM");
    await seen((out) => out.includes("SIGTERM: draining"));
    const signalled = performance.now();
    child.kill("SIGTERM");
    expect(await exited).toBe(1);
    expect(performance.now() - signalled).toBeLessThan(5_000);
    expect(await stuck).toBe("cut");
    expect(stdout()).not.toContain("closed");
  }, 60_000);
});

/** GET on a keep-alive connection of its own: the status and the server's Connection header, or "refused" once the port is closed. */
function probe(url: string): Promise<{ status: number; connection?: string; body: string } | "refused"> {
  const agent = new Agent({ keepAlive: true });
  return new Promise<{ status: number; connection?: string; body: string } | "refused">((resolve, reject) => {
    const req = request(url, { agent, headers: bearer }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNREFUSED" ? resolve("refused") : reject(error)));
    req.end();
  }).finally(() => agent.destroy());
}

describe("SIGTERM behind a load balancer (drainDelayMs)", () => {
  it("fails the readiness probe first, serves what still arrives during the delay, closes the port after it, answers the request in flight, exits 0", async () => {
    const delayMs = 3_000;
    const { child, exited, seen, url, stdout } = await hostProcess(delayMs + 2_000, delayMs);
    const origin = new URL(url).origin;
    expect(await probe(`${origin}/ready`)).toEqual({ status: 200, connection: "keep-alive", body: '{"status":"ready"}' });
    const inFlight = fetch(`${url}/webhooks`, { headers: bearer });
    await seen((out) => /^in handler$/m.test(out));

    const signalled = performance.now();
    child.kill("SIGTERM");
    await seen((out) => out.includes("SIGTERM: draining"));
    expect(await probe(`${origin}/ready`)).toEqual({ status: 503, connection: "close", body: '{"status":"draining"}' });
    const duringDelay = await probe(`${url}/widgets/wgt_5a3c8e1f7b92`);
    expect(performance.now() - signalled).toBeLessThan(delayMs);
    expect(duringDelay).toMatchObject({ status: 200, connection: "close" });

    // The port closes once the delay is over, never before.
    let refusedAt: number | undefined;
    while (refusedAt === undefined) {
      if ((await probe(`${origin}/ready`)) === "refused") refusedAt = performance.now() - signalled;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(refusedAt).toBeGreaterThanOrEqual(delayMs);

    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.headers.get("connection")).toBe("close");
    expect(((await answer.json()) as { type: string }).type).toBe("api.application.webhook.find");
    expect(await exited).toBe(0);
    expect(stdout()).toMatch(/SIGTERM: draining\nclosed\n$/);
  }, 60_000);
});
