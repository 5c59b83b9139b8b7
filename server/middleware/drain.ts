// A graceful drain for SIGTERM: after the signal every answer says `Connection: close` (so a
// keep-alive client opens a new connection elsewhere instead of having its next request cut)
// and a readiness probe fails; then, once the port closes (at once, or after a delay for the
// load balancer to stop sending: server/contract-layer/listen.ts), each socket closes once its
// answer has been flushed, idle sockets close at once, and after a bounded grace period
// whatever is still open is cut.
import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";

export interface Drain {
  /** `listener` with every answer given while draining marked `Connection: close`. */
  tracked(listener: RequestListener): RequestListener;
  /** Starts draining without closing the port: from now on answers say `Connection: close` and `isDraining(server)` is true. */
  announce(): void;
  /** Stops accepting, lets in-flight requests finish within `graceMs`, resolves once the server is closed (announcing first). */
  drain(): Promise<void>;
}

/** Servers whose drain has begun (a readiness probe answers 503 for them). */
const drainingServers = new WeakSet<Server>();

/** Whether `server`'s drain has begun: announced (a signal arrived) or closing. */
export function isDraining(server: Server | undefined): boolean {
  return server !== undefined && drainingServers.has(server);
}

export interface DrainOptions {
  /** How long in-flight requests may take before whatever is still open is cut (ms). */
  graceMs: number;
  /**
   * How long an idle keep-alive socket may stay open after the signal, for its client's next
   * request to learn `Connection: close` (ms, default 1000). Tests that own every client
   * pass 0: nobody sends a next request, and each close() would otherwise wait this long.
   */
  idleGraceMs?: number;
}

export function createDrain(server: Server, options: DrainOptions): Drain {
  const { idleGraceMs = 1000 } = options;
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader("Connection", "close");
  };
  let closing: Promise<void> | undefined;
  const announce = () => {
    if (draining) return;
    draining = true;
    drainingServers.add(server);
    for (const res of inFlight) closeAfter(res);
  };
  return {
    tracked: (listener) => (req: IncomingMessage, res: ServerResponse) => {
      if (draining) closeAfter(res);
      else {
        inFlight.add(res);
        res.once("close", () => inFlight.delete(res));
      }
      listener(req, res);
    },
    announce,
    drain: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        announce();
        const cut = setTimeout(() => server.closeAllConnections(), options.graceMs);
        cut.unref();
        // server.close() would also close every idle keep-alive socket at once, racing the
        // client's next request on it (ECONNRESET): instead each such request is answered
        // with `Connection: close`, and sockets still idle after a moment are closed then.
        const closeIdle = server.closeIdleConnections;
        server.closeIdleConnections = () => undefined;
        let sweep: NodeJS.Timeout | undefined;
        const firstSweep = setTimeout(() => {
          server.closeIdleConnections();
          sweep = setInterval(() => server.closeIdleConnections(), 250);
          sweep.unref();
        }, idleGraceMs);
        firstSweep.unref();
        server.close((error) => {
          clearTimeout(cut);
          clearTimeout(firstSweep);
          clearInterval(sweep);
          if (error) reject(error);
          else resolve();
        });
        server.closeIdleConnections = closeIdle;
      })),
  };
}
