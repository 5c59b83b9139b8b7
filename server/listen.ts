// Starts the reference server: loads the seed (the demo seed unless a file is given), builds
// the store and the app, and listens (a free port on 127.0.0.1 unless told otherwise).
// Tests, the conformance suite and the benchmarks start servers through this.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type express from "express";
import { createApp, type AppOptions } from "./app.js";
import { awaitingContinue } from "./http/expect-continue.js";
import { answerClientErrors } from "./http/client-error.js";
import { createDrain } from "./http/drain.js";
import { loadSeed } from "./seed/load.js";
import { createStore, type Store } from "./store/index.js";

export interface StartOptions extends Partial<AppOptions> {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Seed file to load when no `store` is given; default the demo seed. */
  seedFile?: string;
  /** How long close() waits for in-flight requests before cutting connections (ms, default 10 000). */
  closeTimeoutMs?: number;
  /** How long close() keeps idle keep-alive sockets open for their clients to learn `Connection: close` (ms, default 1000; server/http/drain.ts). */
  idleGraceMs?: number;
  /** How long a client may take to send a whole request, body included, before a 408 (ms, default 30 000). */
  requestTimeoutMs?: number;
}

export interface RunningServer {
  /** Base URL including the `/v1` base path, e.g. `http://127.0.0.1:41234/v1`. */
  url: string;
  /** Stops accepting connections and resolves once in-flight requests are answered (server/http/drain.ts). */
  close(): Promise<void>;
  app: express.Express;
  store: Store;
  server: Server;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const { port = 0, host = "127.0.0.1", seedFile, closeTimeoutMs = 10_000, idleGraceMs, requestTimeoutMs = 30_000, ...appOptions } = options;
  const store = appOptions.store ?? createStore(loadSeed(seedFile));
  // The timeouts are checked every second (Node: every 30 s), so a 30 s limit means 30–31 s.
  const server = createServer({ requestTimeout: requestTimeoutMs, headersTimeout: requestTimeoutMs, connectionsCheckingInterval: 1000 });
  const drain = createDrain(server, { graceMs: closeTimeoutMs, idleGraceMs });
  const app = createApp({ ...appOptions, store });
  const serve = drain.tracked(app);
  server.on("request", serve);
  // With this listener Node leaves `100 Continue` to the app, which sends it once the
  // credentials passed (server/http/expect-continue.ts).
  server.on("checkContinue", (req, res) => {
    awaitingContinue.add(req);
    serve(req, res);
  });
  answerClientErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostInUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return { url: `http://${hostInUrl}:${address.port}/v1`, close: drain.drain, app, store, server };
}
