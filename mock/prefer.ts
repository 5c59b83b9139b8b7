// The mock's per-request switches: `Prefer: code=404, example=Name, dynamic=true` (the
// names Prism uses), or the same as `__code`, `__example`, `__dynamic` query parameters
// where a header is awkward (a link, an <img>). The query switches are taken off the URL
// before the contract layer sees it, which would otherwise refuse them as unknown parameters.
import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import { parsePrefer, type Preference } from "./prefer-header.js";

export { parsePrefer, type Preference };

/** The request being answered, for the handlers (whose input carries no headers). */
export const current = new AsyncLocalStorage<{ preference: Preference; res: ServerResponse }>();

const switches = { __code: "code", __example: "example", __dynamic: "dynamic" } as const;

/** The request's switches (query ones win over the header), and its URL without the query switches. */
export function takePreference(req: IncomingMessage): { preference: Preference; url: string } {
  const url = req.url ?? "/";
  const mark = url.indexOf("?");
  const header = Array.isArray(req.headers.prefer) ? req.headers.prefer.join(", ") : req.headers.prefer;
  if (mark === -1) return { preference: parsePrefer(header), url };
  const query = new URLSearchParams(url.slice(mark + 1));
  const fromQuery: string[] = [];
  for (const [name, key] of Object.entries(switches)) {
    const value = query.get(name);
    if (value === null) continue;
    fromQuery.push(`${key}=${value}`);
    query.delete(name);
  }
  if (fromQuery.length === 0) return { preference: parsePrefer(header), url };
  const rest = query.toString();
  return { preference: { ...parsePrefer(header), ...parsePrefer(fromQuery.join(", ")) }, url: url.slice(0, mark) + (rest ? `?${rest}` : "") };
}
