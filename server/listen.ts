// Starts the reference server: loads the seed (the demo seed unless a file is given), builds
// the store and the app, and listens (a free port on 127.0.0.1 unless told otherwise).
// Tests, the conformance suite and the benchmarks start servers through this.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type express from "express";
import { createApp, type AppOptions } from "./app.js";
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
}

export interface RunningServer {
  /** Base URL including the `/v1` base path, e.g. `http://127.0.0.1:41234/v1`. */
  url: string;
  /** Stops accepting connections and resolves once in-flight requests are answered. */
  close(): Promise<void>;
  app: express.Express;
  store: Store;
  server: Server;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const { port = 0, host = "127.0.0.1", seedFile, closeTimeoutMs = 10_000, ...appOptions } = options;
  const store = appOptions.store ?? createStore(loadSeed(seedFile));
  const app = createApp({ ...appOptions, store });
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostInUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve, reject) => {
      // server.close stops accepting, then waits for open connections; idle keep-alive
      // connections would hold it forever, so they are closed now and as they turn idle.
      const timer = setTimeout(() => server.closeAllConnections(), closeTimeoutMs);
      timer.unref();
      const idleSweep = setInterval(() => server.closeIdleConnections(), 50);
      idleSweep.unref();
      server.close((error) => {
        clearTimeout(timer);
        clearInterval(idleSweep);
        if (error) reject(error);
        else resolve();
      });
      server.closeIdleConnections();
    }));

  return { url: `http://${hostInUrl}:${address.port}/v1`, close, app, store, server };
}
