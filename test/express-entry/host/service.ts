// A host Express service with the contract app inside it, as a backend team mounts it: its
// own routes, its own `express.json()`, a middleware putting a tenant on `res.locals`, the
// reference handlers at `/api` (so `/api/v1/...`), a readiness probe at `/ready`, and
// `listen` with SIGTERM handling (DRAIN_DELAY_MS: its `drainDelayMs`).
// Prints its URL; test/express-entry/host-app.test.ts runs it (and imports `hostApp`).
import express from "express";
import { pathToFileURL } from "node:url";
import { createContractApp, listen, readinessProbe } from "../../../server/contract-layer/index.js";
import { createHandlers } from "../../../server/handlers/index.js";
import { loadSeed } from "../../../server/seed/load.js";
import { createStore } from "../../../server/store/memory.js";

export function hostApp(options: { slowMs?: number; onSlowStart?: () => void } = {}): express.Express {
  const store = createStore(loadSeed());
  const handlers = createHandlers({ store, clock: () => new Date() });
  const app = express();
  app.use(express.json());
  app.use((_req, res, next) => {
    res.locals.tenant = "acme";
    next();
  });
  app.get("/health", (_req, res) => void res.json({ ok: true }));
  app.get("/ready", readinessProbe());
  app.post("/echo", (req, res) => void res.json({ echoed: req.body }));
  app.use(
    "/api",
    createContractApp({
      handlers: {
        ...handlers,
        // Slow enough that a SIGTERM finds requests in flight.
        findWebhooks: async (input) => {
          options.onSlowStart?.();
          await new Promise((resolve) => setTimeout(resolve, options.slowMs ?? 0));
          return handlers.findWebhooks(input);
        },
      },
      authenticate: store,
      rateLimit: false,
      failedAuthLimit: false,
    }),
  );
  app.get("/other", (_req, res) => void res.type("text/plain").send("the host's own route"));
  // A body the host reads after the API passed the request on (text: the JSON parser in front skips it).
  app.post("/note", express.text(), (req, res) => void res.type("text/plain").send(`noted: ${req.body}`));
  // Answers first, then streams the body back: a read after the answer started.
  app.post("/stream", (req, res) => {
    res.writeHead(200, { "content-type": "application/octet-stream" });
    res.flushHeaders();
    req.pipe(res);
  });
  return app;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // "in handler" per slow request, so a test can signal once every request has arrived.
  const listening = await listen(hostApp({ slowMs: Number(process.env.SLOW_MS ?? 0), onSlowStart: () => console.log("in handler") }), {
    port: Number(process.env.PORT ?? 0),
    signals: ["SIGTERM"],
    drainDelayMs: Number(process.env.DRAIN_DELAY_MS ?? 0),
    onSignal: (signal) => console.log(`${signal}: draining`),
    onClosed: () => console.log("closed"),
  });
  console.log(`listening on ${listening.origin}/api/v1`);
}
