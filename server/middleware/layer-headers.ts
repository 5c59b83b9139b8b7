// Headers the request layer puts on answers, without Node or Express: the CORS lists, which the
// server and the mock send through the `cors` middleware (cors.ts), and the RateLimit fields
// of an API without a rate limit (rate-limit.ts). The MSW handlers, which run in browsers too,
// answer preflights and requests with the same.

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

/**
 * The quota a policy without a limit states: the largest Integer of an HTTP structured field
 * (RFC 9651), the most a client of the IETF RateLimit fields can read.
 */
export const unlimitedQuota = 999_999_999_999_999;

/**
 * The RateLimit fields with the rate limit off: every answer carries them, as the document
 * requires of every deployment, and they say what is true (a policy named `unlimited`, no
 * window). docs/decisions.md, *Rate-limit headers without a rate limit*.
 */
export const unlimitedRateLimitFields = { "RateLimit-Policy": `"unlimited"; q=${unlimitedQuota}`, RateLimit: `"unlimited"; r=${unlimitedQuota}` } as const;
