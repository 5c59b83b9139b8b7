// The request's path without its query string: what a problem's `instance` names and what
// the request log records. The query is left out of both, so a credential pasted into it is
// never echoed or logged.
import type { IncomingMessage } from "node:http";

/** `req.originalUrl` (Express) or `req.url`, up to the `?`. */
export function requestPath(req: IncomingMessage & { originalUrl?: string }): string {
  const url = req.originalUrl ?? req.url ?? "/";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/**
 * The path as the contract app routes it: below the mount path Express strips (`req.url`
 * inside `app.use("/api", contractApp)`), up to the `?`. Problems and logs name the full
 * path (`requestPath`), which is what the client asked for.
 */
export function routedPath(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}
