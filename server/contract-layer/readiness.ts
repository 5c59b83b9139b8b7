// When an app is ready to answer: every contract app registers the warm-up of its validators
// (server/contract-layer/validator.ts), and a host app it is mounted in (`host.use("/api",
// contractApp)`, at any depth of Express apps) inherits it. `listen()` waits for `ready(app)`
// before it opens the port, so a load balancer's first health check and a path's first
// client find everything compiled. A host that serves the app some other way (its own
// `http.createServer`, a serverless handler, a Router rather than an app) awaits
// `ready(contractApp)` itself before it takes traffic.
import type { EventEmitter } from "node:events";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { isDraining } from "../middleware/drain.js";

type WarmUp = () => Promise<void>;

const warmUps = new WeakMap<object, Set<WarmUp>>();
/** Apps whose own mounting already passes their warm-ups on. */
const linked = new WeakSet<object>();

function add(app: object, warmUp: WarmUp): void {
  let set = warmUps.get(app);
  if (!set) warmUps.set(app, (set = new Set()));
  set.add(warmUp);
}

/** Registers `warmUp` for `app` and, through Express's `mount` event, for every app it is mounted in. */
export function registerReady(app: EventEmitter, warmUp: WarmUp): void {
  add(app, warmUp);
  passOn(app);
}

function passOn(app: EventEmitter): void {
  if (linked.has(app)) return;
  linked.add(app);
  app.on("mount", (parent: EventEmitter) => {
    add(parent, () => ready(app));
    passOn(parent);
  });
}

/**
 * Resolves once every contract app in `app` (the contract app itself, or a host app it is
 * mounted in) has compiled the request and response validators of all its operations, and
 * has read one small JSON body in process (the body reader's first read loads its encoding
 * tables): from then on no request pays for either. Safe to call more than once (the
 * validators are built once; the small read, about half a millisecond, repeats); resolves at
 * once for an app without contract apps.
 */
export async function ready(app: object): Promise<void> {
  await Promise.all([...(warmUps.get(app) ?? [])].map((warmUp) => warmUp()));
}

/**
 * A readiness probe for a load balancer or Kubernetes, mounted in the host app
 * (`app.get("/ready", readinessProbe())`): 200 `{"status":"ready"}` while the server that
 * received the probe serves, 503 `{"status":"draining"}` from the moment `listen()` got
 * SIGTERM (or `close()` began), so the balancer stops sending before the port closes
 * (`drainDelayMs`). The port opens only once `ready(app)` resolved, so a probe that gets an
 * answer at all finds every validator compiled. A request listener: any Express or Node
 * server takes it.
 */
export function readinessProbe(): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const draining = isDraining((req.socket as { server?: Server }).server);
    const body = JSON.stringify({ status: draining ? "draining" : "ready" });
    res.writeHead(draining ? 503 : 200, { "Content-Type": "application/json", "Cache-Control": "no-store", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  };
}
