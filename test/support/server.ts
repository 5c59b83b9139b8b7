// The reference server as tests start it: server/reference-server.ts's startServer, except that close()
// does not keep idle keep-alive sockets open for a moment (server/middleware/drain.ts). A test owns
// every client of its server, so no next request needs to learn `Connection: close`, and the
// second each close() would wait adds up over the suite's servers.
import { startServer as startReference, type RunningServer, type StartOptions } from "../../server/reference-server.js";

export type { RunningServer, StartOptions } from "../../server/reference-server.js";

/** startServer (server/reference-server.ts) with `idleGraceMs: 0` unless the options say otherwise. */
export function startServer(options: StartOptions = {}): Promise<RunningServer> {
  return startReference({ idleGraceMs: 0, ...options });
}
