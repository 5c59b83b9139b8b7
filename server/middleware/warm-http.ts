// Node's HTTP server and Express load and compile much of their code on first use: the
// parser's callbacks, the socket's write path, Express's router, `res.json` and the header
// writer. Bare Express pays that on its first request (about 5× a warm one in
// bench/cold-start.ts), and so did a contract app's first client after `listen()`. `listen()`
// runs one small request through a throwaway Express app on loopback before it opens the
// real port: none of the service's code runs (no handler, authenticator, logger or host
// middleware sees it), only Node's and Express's. Best effort and bounded: a loopback that
// cannot be bound, or an answer that does not come within `timeoutMs`, leaves the first
// request slower, never the start-up stuck.
import type { RequestListener, ServerOptions } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";

// Node's CommonJS `http`, as server/contract-layer/listen.ts does (its ES facade loads undici).
const { createServer, request } = process.getBuiltinModule("node:http") as typeof import("node:http");

/** A throwaway Express app answering every request with small JSON, as an operation does. */
function throwawayApp(): RequestListener {
  return express().use((_req, res) => {
    res.json({});
  });
}

export interface WarmHttpOptions {
  /** The real server's options (timeouts), so the same code paths run. */
  serverOptions?: ServerOptions;
  /** How long to wait for the whole answer (ms, default 1 000). */
  timeoutMs?: number;
  /** What the throwaway server answers (default a throwaway Express app; tests give slow ones). */
  answer?: RequestListener;
}

/**
 * Resolves with the status of one request through a throwaway loopback server, or with
 * undefined when the server could not be made or bound, or the whole answer did not come
 * within `timeoutMs`; never rejects. The server is closed before it resolves.
 */
export async function warmHttp(options: WarmHttpOptions = {}): Promise<number | undefined> {
  const { serverOptions = {}, timeoutMs = 1000, answer = throwawayApp() } = options;
  let server: ReturnType<typeof createServer>;
  try {
    server = createServer(serverOptions, answer);
  } catch {
    // Options Node refuses: the real server's createServer says so with its own error.
    return undefined;
  }
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", resolve);
    });
    const { address, port } = server.address() as AddressInfo;
    return await new Promise<number | undefined>((resolve) => {
      // One connection (no agent: `Connection: close`), cut when the time is up.
      const req = request({ host: address, port, agent: false, signal: AbortSignal.timeout(timeoutMs) }, (res) => {
        res.resume();
        // Also when the answer is cut: `complete` tells a whole one.
        res.once("close", () => resolve(res.complete ? res.statusCode : undefined));
      });
      req.on("error", () => resolve(undefined));
      req.end();
    });
  } catch {
    return undefined;
  } finally {
    await new Promise((closed) => server.close(closed));
  }
}
