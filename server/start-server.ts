// Starts the reference server: loads the seed (the demo seed unless a file is given), builds
// the store and the app, and listens (a free port on 127.0.0.1 unless told otherwise).
// Tests, the conformance suite and the benchmarks start servers through this.
import type { Server } from "node:http";
import type express from "express";
import { createApp, type AppOptions } from "./reference-app.js";
import { listen, type ListenOptions } from "./express/listen.js";
import { loadSeed } from "./seed/load.js";
import { createStore } from "./store/memory.js";
import type { Store } from "./domain/index.js";

export interface StartOptions extends Partial<AppOptions>, Pick<ListenOptions, "signals" | "onSignal" | "onClosed" | "onCloseError"> {
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
  /** Stops accepting connections and resolves once in-flight requests are answered (server/express/listen.ts). */
  close(): Promise<void>;
  app: express.Express;
  store: Store;
  server: Server;
}

/** The reference server through the same `listen` a service gets from `@authsvc/app-api-server/express`. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const {
    port = 0,
    host = "127.0.0.1",
    seedFile,
    closeTimeoutMs = 10_000,
    idleGraceMs,
    requestTimeoutMs = 30_000,
    signals,
    onSignal,
    onClosed,
    onCloseError,
    ...appOptions
  } = options;
  const store = appOptions.store ?? createStore(loadSeed(seedFile));
  const app = createApp({ ...appOptions, store });
  const listening = await listen(app, { port, host, closeTimeoutMs, idleGraceMs, requestTimeoutMs, ...(signals ? { signals, onSignal, onClosed, onCloseError } : {}) });
  return { url: `${listening.origin}/v1`, close: listening.close, app, store, server: listening.server };
}
