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
import express from "express";

// Node's CommonJS `http`, as server/express/listen.ts does (its ES facade loads undici).
const { createServer, request } = process.getBuiltinModule("node:http") as typeof import("node:http");

/** A throwaway Express app with one route answering small JSON, as an operation does. */
function throwawayApp(): RequestListener {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.get("/", (_req, res) => {
    res.status(200).json({ warm: true });
  });
  return app;
}

export interface WarmHttpOptions {
  /** The real server's options (timeouts), so the same code paths run. */
  serverOptions?: ServerOptions;
  /** How long to wait for the answer (ms, default 1 000). */
  timeoutMs?: number;
  /** What the throwaway server answers (default a throwaway Express app; tests give one that never answers). */
  answer?: RequestListener;
}

/**
 * Resolves with the status of one request through a throwaway loopback server, or with
 * undefined after `timeoutMs` or on any error; never rejects.
 */
export function warmHttp(options: WarmHttpOptions = {}): Promise<number | undefined> {
  const { serverOptions = {}, timeoutMs = 1000, answer = throwawayApp() } = options;
  return new Promise((resolve) => {
    let server: ReturnType<typeof createServer>;
    try {
      server = createServer(serverOptions, answer);
    } catch {
      // Options Node refuses: the real server's createServer says so with its own error.
      return resolve(undefined);
    }
    let done = false;
    let req: ReturnType<typeof request> | undefined;
    let status: number | undefined;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // The client's end of the one connection: the server's closes with it, and close() ends.
      req?.destroy();
      server.close(() => resolve(status));
    };
    const timer = setTimeout(finish, timeoutMs);
    server.on("error", finish);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      req = request({ host: "127.0.0.1", port, path: "/", method: "GET", agent: false, headers: { accept: "application/json" } }, (res) => {
        res.resume();
        res.once("end", () => {
          status = res.statusCode;
          finish();
        });
        // `on`, not `once`: a connection cut by the timeout may report more than one error.
        res.on("error", finish);
      });
      req.on("error", finish);
      req.end();
    });
  });
}
