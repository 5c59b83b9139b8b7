// The four ways the contract layer is served, as tests and probes start them in process: the
// reference server (`startServer`, what `npm start` runs), the mock (`startMock`), and the
// service docs/backend.md shows (the API at /api in a host Express app with its own
// `express.json()` after it) served by `listen()` and by plain `app.listen()`. Each gives
// the origin, where a PUT of the API is, and a close().
import type { AddressInfo } from "node:net";
import express from "express";
import { createContractApp, listen } from "../../server/contract-layer/index.js";
import { createHandlers } from "../../server/handlers/index.js";
import { loadSeed } from "../../server/seed/load.js";
import { createStore } from "../../server/store/memory.js";
import { startMock } from "../../mock/index.js";
import { startServer } from "./server.js";

export interface Host {
  name: string;
  origin: string;
  /** The path of the API's base (`/v1`, or `/api/v1` in the host app). */
  base: string;
  close(): Promise<void>;
}

/** The service of docs/backend.md's `src/main.ts`, with the reference handlers over the demo data. */
export function docsServiceApp(): express.Express {
  const store = createStore(loadSeed());
  const app = express();
  app.use("/api", createContractApp({ handlers: createHandlers({ store, clock: () => new Date() }), authenticate: store }));
  app.use(express.json());
  app.get("/health", (_req, res) => void res.json({ ok: true }));
  return app;
}

export const hostNames = ["server", "mock", "listen()", "app.listen()"] as const;
export type HostName = (typeof hostNames)[number];

export async function startHost(name: HostName): Promise<Host> {
  switch (name) {
    case "server": {
      const server = await startServer();
      return { name, origin: new URL(server.url).origin, base: "/v1", close: server.close };
    }
    case "mock": {
      const mock = await startMock();
      return { name, origin: new URL(mock.url).origin, base: "/v1", close: mock.close };
    }
    case "listen()": {
      const listening = await listen(docsServiceApp(), { idleGraceMs: 0 });
      return { name, origin: listening.origin, base: "/api/v1", close: listening.close };
    }
    case "app.listen()": {
      const app = docsServiceApp();
      const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
        const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
      });
      const { port } = server.address() as AddressInfo;
      return {
        name,
        origin: `http://127.0.0.1:${port}`,
        base: "/api/v1",
        close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
      };
    }
  }
}
