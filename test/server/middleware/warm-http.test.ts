// listen()'s warm-up of Node's HTTP server and Express (server/middleware/warm-http.ts): one
// request through a throwaway loopback server, none of the service's code, and never a
// reason for start-up to hang or fail.
import type { RequestListener, Server } from "node:http";
import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { warmHttp } from "../../../server/middleware/warm-http.js";

/** An answer that records each request, the throwaway server and the server's end of the connection. */
function recording(answer: RequestListener) {
  const seen: { line: string; server: Server; socket: Socket }[] = [];
  const listener: RequestListener = (req, res) => {
    seen.push({ line: `${req.method} ${req.url} ${req.socket.localAddress}`, server: (req.socket as Socket & { server: Server }).server, socket: req.socket });
    answer(req, res);
  };
  return { seen, listener };
}

/** Resolves once the server's end of the connection is closed (it closes right after the client's). */
const closedSoon = (socket: Socket) => (socket.destroyed ? Promise.resolve() : new Promise((resolve) => socket.once("close", resolve)));

describe("warmHttp", () => {
  it("by default, a throwaway Express app answers it 200", async () => {
    expect(await warmHttp()).toBe(200);
  });

  it("sends one GET / to a throwaway server on 127.0.0.1, closed once it resolves", async () => {
    const { seen, listener } = recording((_req, res) => res.end("{}"));
    expect(await warmHttp({ answer: listener })).toBe(200);
    expect(seen.map((one) => one.line)).toEqual(["GET / 127.0.0.1"]);
    expect(seen[0]!.server.listening).toBe(false);
    await closedSoon(seen[0]!.socket);
  });

  it.each<[string, RequestListener]>([
    ["never comes", () => {}],
    [
      "starts and never ends",
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write("{");
      },
    ],
  ])("an answer that %s: resolves with no status once timeoutMs passed, the connection cut, no error escaping", async (_, answer) => {
    const { seen, listener } = recording(answer);
    const started = Date.now();
    expect(await warmHttp({ answer: listener, timeoutMs: 150 })).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.server.listening).toBe(false);
    await closedSoon(seen[0]!.socket);
  });

  it("an answer cut halfway by the server: no status, at once", async () => {
    const { seen, listener } = recording((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("{");
      setTimeout(() => req.socket.destroy(), 20);
    });
    const started = Date.now();
    expect(await warmHttp({ answer: listener, timeoutMs: 5_000 })).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(seen[0]!.server.listening).toBe(false);
  });

  it("options Node refuses: resolves with no status (listen()'s own server reports them)", async () => {
    await expect(warmHttp({ serverOptions: { requestTimeout: -1 } })).resolves.toBeUndefined();
  });
});
