// The mock server's per-request switches (mock/prefer-header.ts): taken off the request before
// the contract layer sees it, which would otherwise refuse the query switches as unknown
// parameters, and kept for the handlers, whose input carries no headers.
import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import { parsePrefer, preferenceOf, type Preference } from "./prefer-header.js";

export { parsePrefer, type Preference };

/** The request being answered, for the handlers (whose input carries no headers). */
export const current = new AsyncLocalStorage<{ preference: Preference; res: ServerResponse }>();

/** The request's switches (query ones win over the header), and its URL without the query switches. */
export function takePreference(req: IncomingMessage): { preference: Preference; url: string } {
  const url = req.url ?? "/";
  const mark = url.indexOf("?");
  const header = Array.isArray(req.headers.prefer) ? req.headers.prefer.join(", ") : req.headers.prefer;
  const query = new URLSearchParams(mark === -1 ? "" : url.slice(mark + 1));
  const taken = preferenceOf(header, query);
  if (taken.query === query) return { preference: taken.preference, url };
  const rest = taken.query.toString();
  return { preference: taken.preference, url: url.slice(0, mark) + (rest ? `?${rest}` : "") };
}
