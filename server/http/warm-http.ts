// Node's HTTP server and client load and compile much of their code on first use: the
// parser's callbacks, the response's header writer, the socket's write path. Bare Express
// pays that on its first request (about 5× a warm one in bench/cold-start.ts), and so did
// a contract app's first client after `listen()`. `listen()` runs one small request through
// a throwaway server on loopback before it opens the real port: none of the app's code runs
// (no handler, authenticator, logger or host middleware sees it), only Node's. Best effort
// and bounded: a loopback that cannot be bound, or an answer that does not come within
// `timeoutMs`, leaves the first request slower, never the start-up stuck.
import type { RequestListener, ServerOptions } from "node:http";

// Node's CommonJS `http`, as server/express/listen.ts does (its ES facade loads undici).
const { createServer, request } = process.getBuiltinModule("node:http") as typeof import("node:http");

/** A small JSON answer with the headers every answer of the API carries, as the real server writes it. */
const answerSmallJson: RequestListener = (_req, res) => {
  res.statusCode = 200;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("X-Request-Id", "00000000-0000-4000-8000-000000000000");
  res.end('{"warm":true}');
};

export interface WarmHttpOptions {
  /** The real server's options (timeouts), so the same code paths run. */
  serverOptions?: ServerOptions;
  /** How long to wait for the answer (ms, default 1 000). */
  timeoutMs?: number;
  /** What the throwaway server answers (tests give one that never answers). */
  answer?: RequestListener;
}

/** Resolves once one request went through a throwaway loopback server, or after `timeoutMs`, or on any error; never rejects. */
export function warmHttp(options: WarmHttpOptions = {}): Promise<void> {
  const { serverOptions = {}, timeoutMs = 1000, answer = answerSmallJson } = options;
  return new Promise<void>((resolve) => {
    let server: ReturnType<typeof createServer>;
    try {
      server = createServer(serverOptions, answer);
    } catch {
      // Options Node refuses: the real server's createServer says so with its own error.
      return resolve();
    }
    let done = false;
    let req: ReturnType<typeof request> | undefined;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // The client's end of the one connection: the server's closes with it, and close() ends.
      req?.destroy();
      server.close(() => resolve());
    };
    const timer = setTimeout(finish, timeoutMs);
    server.on("error", finish);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      req = request({ host: "127.0.0.1", port, path: "/", method: "GET", agent: false, headers: { accept: "application/json" } }, (res) => {
        res.resume();
        res.once("end", finish);
        // `on`, not `once`: a connection cut by the timeout may report more than one error.
        res.on("error", finish);
      });
      req.on("error", finish);
      req.end();
    });
  });
}
