// listen() runs the warm-up of Node's HTTP server and Express (server/http/warm-http.ts)
// with the real server's timeouts, and waits for it (what the warm-up does: warm-http.test.ts;
// what it buys: bench/cold-start.ts).
import type { RequestListener } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";

const order: string[] = [];
vi.mock("../../../server/http/warm-http.js", () => ({
  warmHttp: vi.fn(async (options: unknown) => {
    order.push(`warm ${JSON.stringify(options)}`);
  }),
}));

const { listen } = await import("../../../server/express/listen.js");

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

describe("listen()", () => {
  it("runs the warm-up with the server's own timeouts, and waits for it", async () => {
    const app: RequestListener = (_req, res) => res.end();
    const listening = await listen(app, { requestTimeoutMs: 7_000 });
    closing.push(listening.close);
    order.push("listening");
    expect(order).toEqual(['warm {"serverOptions":{"requestTimeout":7000,"headersTimeout":7000,"connectionsCheckingInterval":1000}}', "listening"]);
  });
});
