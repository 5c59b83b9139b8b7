// A graceful drain for SIGTERM: after the signal every answer says `Connection: close` (so a
// keep-alive client opens a new connection elsewhere instead of having its next request cut),
// each socket closes once its answer has been flushed, idle sockets close at once, and after
// a bounded grace period whatever is still open is cut.
import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";

export interface Drain {
  /** `listener` with every answer given while draining marked `Connection: close`. */
  tracked(listener: RequestListener): RequestListener;
  /** Stops accepting, lets in-flight requests finish within `graceMs`, resolves once the server is closed. */
  drain(): Promise<void>;
}

export function createDrain(server: Server, options: { graceMs: number }): Drain {
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader("Connection", "close");
  };
  let closing: Promise<void> | undefined;
  return {
    tracked: (listener) => (req: IncomingMessage, res: ServerResponse) => {
      if (draining) closeAfter(res);
      else {
        inFlight.add(res);
        res.once("close", () => inFlight.delete(res));
      }
      listener(req, res);
    },
    drain: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        draining = true;
        for (const res of inFlight) closeAfter(res);
        const cut = setTimeout(() => server.closeAllConnections(), options.graceMs);
        cut.unref();
        // An answer already under way without `Connection: close` leaves its socket idle
        // once flushed: those are closed as they turn idle.
        const sweep = setInterval(() => server.closeIdleConnections(), 250);
        sweep.unref();
        server.close((error) => {
          clearTimeout(cut);
          clearInterval(sweep);
          if (error) reject(error);
          else resolve();
        });
        server.closeIdleConnections();
      })),
  };
}
