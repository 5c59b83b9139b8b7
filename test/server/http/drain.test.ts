// Graceful drain: after close() starts, a request in flight is answered whole with
// `Connection: close`, idle keep-alive sockets are closed, and close() resolves once the
// last answer is flushed.
import { Agent, request } from "node:http";
import { expect, it } from "vitest";
import type { Handlers } from "../../../server/express/contract.js";
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
