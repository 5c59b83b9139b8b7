// The entry's protections against slow and unauthenticated clients live partly in the HTTP
// server, not the app: a whole request within 30 s, and `100 Continue` only after the
// credentials passed (a `checkContinue` listener). `listen()` (server/contract-layer/listen.ts) sets
// both; `app.listen()` or `http.createServer(app)` has Node's defaults (headers within 60 s,
// the whole request within 300 s, `100 Continue` sent by Node before any check). The app
// cannot change the server it is given, so on its first request it looks at that server and
// says once, in one log line, what it lacks and that `listen()` gives it.
import type { Server } from "node:http";
import type { RequestHandler } from "express";

/** The longest request timeout (headers or whole request) taken as "the entry's": listen's default is 30 s. */
export const maxRequestTimeoutMs = 60_000;

/** What the server lacks of listen()'s settings; empty when it has them (or cannot be seen). */
export function missingProtections(server: Server | undefined): string[] {
  // A request injected without a real server (light-my-request and the like): nothing to judge.
  if (server === undefined || typeof server.requestTimeout !== "number") return [];
  const missing: string[] = [];
  // Node bounds the whole request, headers included, by `requestTimeout` (0: none; its
  // `headersTimeout` bounds the headers alone, so it cannot stop a body trickled forever).
  const whole = server.requestTimeout;
  if (!(whole > 0 && whole <= maxRequestTimeoutMs))
    missing.push(`a request may take ${whole > 0 ? `${Math.ceil(whole / 1000)} s` : "any time (no request timeout)"} to arrive (listen(): 30 s)`);
  if (server.listenerCount("checkContinue") === 0) missing.push("Node answers `Expect: 100-continue` before the credentials are checked");
  return missing;
}

/** The message of the warning, or undefined when the server has listen()'s settings. */
export function servedWithoutListenMessage(server: Server | undefined): string | undefined {
  const missing = missingProtections(server);
  if (missing.length === 0) return undefined;
  return `The API is served without listen() from @authsvc/app-api-server/express: ${missing.join("; ")}. Serve the app (or the host app it is mounted in) with listen(app, { port }) (docs/backend.md, Lifecycle).`;
}

/** A step that checks the serving server on the app's first request and calls `warn` once if it lacks listen()'s settings. */
export function warnWhenServedWithoutListen(warn: (message: string) => void): RequestHandler {
  let checked = false;
  return (req, _res, next) => {
    if (!checked) {
      checked = true;
      const message = servedWithoutListenMessage((req.socket as { server?: Server }).server);
      if (message) warn(message);
    }
    next();
  };
}
