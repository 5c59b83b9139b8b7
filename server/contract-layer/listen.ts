// Serving an app over HTTP with the protections of the reference server, for any service
// that mounts the contract app: `listen(app, { port })`. Node's defaults leave them out
// (`createServer(app).listen()`): it answers `Expect: 100-continue` before credentials are
// checked, lets a client trickle headers or a body for minutes, answers malformed requests
// without a body, and `server.close()` cuts keep-alive clients mid-request. Here:
// - a whole request (headers and body) must arrive within `requestTimeoutMs`, else a 408
//   problem, checked every second (Node: every 30 s), so 30 s means 30–31 s;
// - `100 Continue` is sent only once the operation's credentials passed (a request that
//   fails them never gets the server to wait for its body);
// - Node's own 400/408/431 answers carry the problem body every other error carries;
// - `close()` drains: stops accepting, marks every answer `Connection: close`, lets
//   in-flight requests finish within `closeTimeoutMs`, then cuts what is left;
// - with `signals`, SIGTERM (and the others named) runs that drain, then `onClosed`, then
//   exits 0 (1 if closing failed; a second signal during the drain exits 1 at once): the
//   behaviour of `npm start`. Behind a load balancer, `drainDelayMs` keeps the port open
//   that long after SIGTERM while `readinessProbe()` (readiness.ts) already answers 503;
// - the port opens only once `ready(app)` resolved: every operation's validators of every
//   contract app in `app` are compiled, so no client's first request pays for them, and
//   one request went through a throwaway Express app on loopback (server/middleware/warm-http.ts),
//   so neither does it pay for the first use of Node's HTTP server and Express.
import type { RequestListener, Server } from "node:http";
import type { AddressInfo } from "node:net";
import { answerClientErrors } from "../middleware/client-error.js";
import { createDrain } from "../middleware/drain.js";
import { holdContinue } from "../middleware/expect-continue.js";
import { warmHttp } from "../middleware/warm-http.js";
import { ready } from "./readiness.js";

// Node's CommonJS `http`, not its ES module facade: importing `node:http` as a module reads
// every export once, and three of them (WebSocket, CloseEvent, MessageEvent) load Node's
// fetch implementation (undici), ~10-30 ms of a cold start a server never uses.
const { createServer } = process.getBuiltinModule("node:http") as typeof import("node:http");

export interface ListenOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1 (give `0.0.0.0` or `::` to accept other hosts). */
  host?: string;
  /** How long a client may take to send a whole request, body included, before a 408 (ms, default 30 000). */
  requestTimeoutMs?: number;
  /** How long `close()` waits for in-flight requests before cutting connections (ms, default 10 000). */
  closeTimeoutMs?: number;
  /** How long `close()` keeps an idle keep-alive connection open for a client's next request (ms, default 1 000; tests pass 0). */
  idleGraceMs?: number;
  /** Signals that drain the server and exit the process (e.g. `["SIGTERM", "SIGINT"]`); default none. */
  signals?: readonly NodeJS.Signals[];
  /**
   * After SIGTERM, how long the port stays open before the drain closes it (ms, default 0):
   * `readinessProbe()` answers 503 from the signal on, and requests still sent meanwhile (a
   * load balancer has yet to see the probe fail) are served, with `Connection: close`. Like a
   * Kubernetes `preStop` sleep (use one or the other). Other signals (Ctrl-C) close at once.
   */
  drainDelayMs?: number;
  /** Called when one of `signals` arrives, before the drain (e.g. to log it). */
  onSignal?: (signal: NodeJS.Signals) => void;
  /** Called after the drain on a signal, before the process exits (e.g. to close a database pool). */
  onClosed?: () => void | Promise<void>;
  /** Called if the drain or `onClosed` failed; the process then exits 1. */
  onCloseError?: (error: unknown) => void;
}

export interface Listening {
  server: Server;
  /** `http://host:port` (no path), e.g. `http://127.0.0.1:41234`. */
  origin: string;
  port: number;
  /** Drains and stops the server; resolves once every connection is closed. Safe to call twice. */
  close(): Promise<void>;
}

/** Serves `app` (an Express app or any request listener) and resolves once it listens, its contract apps' validators compiled. */
export async function listen(app: RequestListener, options: ListenOptions = {}): Promise<Listening> {
  await ready(app);
  const { port = 0, host = "127.0.0.1", requestTimeoutMs = 30_000, closeTimeoutMs = 10_000, idleGraceMs, signals = [], drainDelayMs = 0 } = options;
  const serverOptions = { requestTimeout: requestTimeoutMs, headersTimeout: requestTimeoutMs, connectionsCheckingInterval: 1000 };
  await warmHttp({ serverOptions });
  const server = createServer(serverOptions);
  const drain = createDrain(server, { graceMs: closeTimeoutMs, idleGraceMs });
  const serve = drain.tracked(app);
  server.on("request", serve);
  // With this listener Node leaves `100 Continue` to the app, which sends it once the
  // credentials passed, and to any other reader of the body (server/middleware/expect-continue.ts).
  server.on("checkContinue", (req, res) => {
    holdContinue(req, res);
    serve(req, res);
  });
  answerClientErrors(server);

  // Listeners before listening: a client may signal as soon as it can connect.
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    // A second signal during the drain (a second Ctrl-C): the operator wants out now.
    if (stopping) process.exit(1);
    stopping = true;
    options.onSignal?.(signal);
    // Readiness fails now; the port closes after the delay, once balancers stopped sending.
    drain.announce();
    new Promise((resolve) => setTimeout(resolve, signal === "SIGTERM" ? drainDelayMs : 0))
      .then(() => drain.drain())
      .then(() => options.onClosed?.())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          options.onCloseError?.(error);
          process.exit(1);
        },
      );
  };
  for (const signal of signals) process.on(signal, onSignal);

  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    for (const signal of signals) process.off(signal, onSignal);
    throw error;
  }
  const address = server.address() as AddressInfo;
  const hostInUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    server,
    origin: `http://${hostInUrl}:${address.port}`,
    port: address.port,
    close: async () => {
      await drain.drain();
      for (const signal of signals) process.off(signal, onSignal);
    },
  };
}
