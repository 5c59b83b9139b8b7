// Graceful drain: after close() starts, a request in flight is answered whole with
// `Connection: close`, idle keep-alive sockets are closed, and close() resolves once the
// last answer is flushed. On a bare Node server (createDrain): an answer already streaming
// finishes and its socket is swept once idle, a request arriving on a kept-alive socket
// during the drain is told `Connection: close`, what is open after the grace period is cut,
// a failed close rejects, and a done answer is not kept (the drain's set is no leak).
import { Agent, createServer, request, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { createDrain, type DrainOptions } from "../../../server/middleware/drain.js";
import type { Handlers } from "../../../server/contract-layer/contract.js";
import { createHandlers } from "../../../server/handlers/index.js";
import { createStore } from "../../../server/store/memory.js";
import { loadSeed } from "../../../server/seed/load.js";
import { appA } from "../../support/demo.js";
import { startHarness } from "./harness.js";

function get(url: string, agent: Agent): Promise<{ status: number; connection?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { authorization: `Bearer ${appA.apiKey}` } }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

it("a request in flight at close() is answered whole with Connection: close, and close() waits for it", async () => {
  const store = createStore(loadSeed());
  const real = createHandlers({ store, clock: () => new Date() }).readWidget;
  let started!: () => void;
  const handlerStarted = new Promise<void>((resolve) => (started = resolve));
  let calls = 0;
  const slowRead: Handlers["readWidget"] = async (input) => {
    if (++calls === 2) started(); // the second read is the one in flight at close()
    await new Promise((resolve) => setTimeout(resolve, 500));
    return real(input);
  };
  const server = await startHarness({ store, rateLimit: false, handlers: { readWidget: slowRead } });
  const agent = new Agent({ keepAlive: true });
  const url = `${server.url}/widgets/wgt_5a3c8e1f7b92`;
  const warm = await get(url, agent); // leaves an idle keep-alive socket
  expect(warm.connection).toBe("keep-alive");
  const inFlight = get(url, new Agent({ keepAlive: true }));
  await handlerStarted; // in flight: the server is working on it
  let closed = false;
  const closing = server.close().then(() => (closed = true));
  const answer = await inFlight;
  expect(answer.status).toBe(200);
  expect(answer.connection).toBe("close");
  expect(JSON.parse(answer.body)).toMatchObject({ result: { id: "wgt_5a3c8e1f7b92" } });
  await closing;
  expect(closed).toBe(true);
  agent.destroy();
});

// The drain on a bare Node server, each answer held until the test lets it go.
describe("createDrain", () => {
  async function serving(listener: RequestListener, options: DrainOptions) {
    // No keep-alive timeout: an idle socket closes only when the drain closes it.
    const server = createServer({ keepAliveTimeout: 0 });
    const drain = createDrain(server, options);
    server.on("request", drain.tracked(listener));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { drain, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
  }
  const agents: Agent[] = [];
  const keepAlive = () => {
    const agent = new Agent({ keepAlive: true });
    agents.push(agent);
    return agent;
  };
  afterEach(() => {
    for (const agent of agents.splice(0)) agent.destroy();
  });

  it("lets an answer whose headers were sent before the drain finish, then closes its idle socket", async () => {
    let held!: ServerResponse;
    const { drain, url } = await serving(
      (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("first ");
        held = res;
      },
      { graceMs: 60_000, idleGraceMs: 0 },
    );
    const answer = new Promise<IncomingMessage>((resolve, reject) => request(url, { agent: keepAlive() }, resolve).on("error", reject).end());
    const response = await answer;
    expect(response.headers.connection).toBe("keep-alive"); // sent before the drain: it cannot say close
    const closing = drain.drain();
    // After the first sweep of idle sockets: this one turns idle later, and a later sweep closes it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const body = text(response);
    held.end("last");
    expect(await body).toBe("first last");
    await closing;
  });

  it("answers a request that comes on a kept-alive connection after the drain started with Connection: close", async () => {
    const { drain, url } = await serving((_req, res) => res.end("ok"), { graceMs: 60_000, idleGraceMs: 60_000 });
    const agent = keepAlive();
    const first = await get(url, agent);
    expect(first.connection).toBe("keep-alive");
    const closing = drain.drain();
    const next = await get(url, agent);
    expect(next).toMatchObject({ status: 200, connection: "close", body: "ok" });
    await closing;
  });

  it("cuts an answer still open after the grace period", async () => {
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const { drain, url } = await serving(() => arrived(), { graceMs: 50, idleGraceMs: 0 });
    const cut = new Promise<Error>((resolve) => request(url, { agent: keepAlive() }).on("error", resolve).end());
    await inFlight;
    await drain.drain();
    expect((await cut).message).toBe("socket hang up");
  });

  it("holds no answer once it is done: a long-running server keeps only those in flight", async () => {
    // Node's gc(), reached without --expose-gc on the command line.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const answers: WeakRef<ServerResponse>[] = [];
    let done!: () => void;
    const allDone = new Promise<void>((resolve) => (done = resolve));
    const { drain, url } = await serving(
      (_req, res) => {
        answers.push(new WeakRef(res));
        res.on("close", () => answers.length === 3 && done());
        res.end("ok");
      },
      { graceMs: 60_000, idleGraceMs: 0 },
    );
    for (let i = 0; i < 3; i++) await get(url, new Agent({ keepAlive: false }));
    await allDone;
    await new Promise((resolve) => setImmediate(resolve)); // a WeakRef holds its target until the job that made it ends
    gc();
    expect(answers.filter((answer) => answer.deref() !== undefined)).toHaveLength(0);
    await drain.drain();
  });

  it("rejects when the server cannot be closed (not listening)", async () => {
    await expect(createDrain(createServer(), { graceMs: 50 }).drain()).rejects.toMatchObject({ code: "ERR_SERVER_NOT_RUNNING" });
  });
});

function text(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = "";
    response.on("data", (chunk: Buffer) => (body += chunk.toString()));
    response.on("end", () => resolve(body));
  });
}
