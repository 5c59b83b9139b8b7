// The API's CORS header lists, without Node or Express: the server and the mock send them
// through the `cors` middleware (cors.ts), and the MSW handlers, which run in browsers too,
// answer preflights and requests with the same lists.

/** Request headers a client may send: both credential schemes, the body type, the request id, Prism's `Prefer`. */
export const corsAllowedHeaders = ["Authorization", "X-Api-Key", "X-Api-Secret", "Content-Type", "X-Request-Id", "Prefer"];

/** How long browsers cache a preflight's answer (seconds), sparing a round trip per call. */
export const corsMaxAgeSeconds = 600;

/** Response headers every page may read without being exposed (Fetch standard, CORS-safelisted response-header names). */
const safelistedResponseHeaders = new Set(["cache-control", "content-language", "content-length", "content-type", "expires", "last-modified", "pragma"]);

/**
 * Of the response header names a document declares, those a page can read only when
 * exposed: not the safelisted ones nor the CORS headers themselves; each once, sorted.
 */
export function exposableHeaders(declared: Iterable<string>): string[] {
  const names = new Map<string, string>();
  for (const name of declared) {
    const lower = name.toLowerCase();
    if (!safelistedResponseHeaders.has(lower) && !lower.startsWith("access-control-")) names.set(lower, name);
  }
  return [...names.values()].sort();
}
