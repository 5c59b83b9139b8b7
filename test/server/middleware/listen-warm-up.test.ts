// listen() runs the warm-up of Node's HTTP server and Express (server/middleware/warm-http.ts)
// before it resolves: one `GET /` reaches a server of its own with the real server's
// timeouts (seen through Node's `http.server.request.start` diagnostics channel). What the
// warm-up does: warm-http.test.ts; what it buys: bench/cold-start.ts.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { IncomingMessage, RequestListener, Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { listen } from "../../../server/contract-layer/listen.js";

describe("listen()", () => {
  it("sends one request through a server of its own, with the real server's timeouts, before it resolves", async () => {
    const seen: { line: string; port: number; requestTimeout: number }[] = [];
    const onRequest = (message: unknown) => {
      const { request, server } = message as { request: IncomingMessage; server: Server };
      seen.push({ line: `${request.method} ${request.url}`, port: (server.address() as AddressInfo).port, requestTimeout: server.requestTimeout });
    };
    subscribe("http.server.request.start", onRequest);
    const app: RequestListener = (_req, res) => res.end();
    try {
      const listening = await listen(app, { requestTimeoutMs: 7_000 });
      await listening.close();
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ line: "GET /", requestTimeout: 7_000 });
      expect(seen[0]!.port).not.toBe(listening.port);
    } finally {
      unsubscribe("http.server.request.start", onRequest);
    }
  });
});
