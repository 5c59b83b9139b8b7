// listen()'s warm-up of Node's HTTP server and Express (server/http/warm-http.ts): one
// request through a throwaway loopback server, none of the service's code, and never a
// reason for start-up to hang or fail.
import type { RequestListener } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { warmHttp } from "../../../server/http/warm-http.js";

/** Open TCP servers and sockets of this process. */
const openTcp = () => process.getActiveResourcesInfo().filter((kind) => kind.startsWith("TCP")).length;
/** Closed handles leave the list once libuv ran their close callbacks. */
const settlesTo = (count: number) => vi.waitFor(() => expect(openTcp()).toBe(count), { timeout: 1000, interval: 5 });

describe("warmHttp", () => {
  it("by default, a throwaway Express app answers it 200, and nothing stays open", async () => {
    const before = openTcp();
    expect(await warmHttp()).toBe(200);
    await settlesTo(before);
  });

  it("sends one request through a throwaway loopback server and leaves nothing open", async () => {
    const before = openTcp();
    const seen: string[] = [];
    const answer: RequestListener = (req, res) => {
      seen.push(`${req.method} ${req.url} ${req.socket.localAddress}`);
      res.end("{}");
    };
    expect(await warmHttp({ answer })).toBe(200);
    expect(seen).toEqual(["GET / 127.0.0.1"]);
    await settlesTo(before);
  });

  it("an answer that never comes: resolves once timeoutMs passed, the connection cut", async () => {
    const before = openTcp();
    let asked = 0;
    const started = Date.now();
    expect(await warmHttp({ answer: () => void asked++, timeoutMs: 150 })).toBeUndefined();
    expect(asked).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await settlesTo(before);
  });

  it("options Node refuses: resolves (listen()'s own server reports them)", async () => {
    await expect(warmHttp({ serverOptions: { requestTimeout: -1 } })).resolves.toBeUndefined();
  });
});
