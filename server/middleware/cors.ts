// CORS (the `cors` middleware), so a browser app on another origin can call the server:
// preflights are answered 204 here, before the rate limit, authentication and validation
// (a preflight carries no credentials and must not use up a quota). A request from an origin
// not allowed gets no CORS headers at all and is otherwise answered as usual; the browser
// then withholds the answer from the page.
import cors from "cors";
import type { RequestHandler } from "express";
import { operationsOf, resolveRef, type ApiDocument } from "../document/load.js";
import { corsAllowedHeaders, corsMaxAgeSeconds, exposableHeaders } from "./layer-headers.js";
import { escapeRegExp } from "./path-pattern.js";

/** Which origins may call: `"*"` for any, or origins such as `https://app.example`, `http://localhost:*` (any port). */
export interface CorsOptions {
  origins: "*" | readonly string[];
}

/** Local development servers on any port, and nothing else. */
export const defaultCorsOrigins: readonly string[] = ["http://localhost:*", "http://127.0.0.1:*"];

/**
 * The response headers a page may read besides the safelisted ones: every header any
 * response of the document declares, except the safelisted ones and the CORS headers
 * themselves. Read from the document, so a header added there is readable by browser code
 * without a change here.
 */
export function corsExposedHeaders(document: ApiDocument): string[] {
  return exposableHeaders(
    operationsOf(document).flatMap(({ operation }) =>
      Object.values(operation.responses ?? {}).flatMap((response) =>
        Object.keys(resolveRef<{ headers?: Record<string, unknown> }>(document, response as never).headers ?? {}),
      ),
    ),
  );
}

/** `http://localhost:*` → any port (or none); anything else is matched exactly. */
function originMatcher(origins: readonly string[]): (origin: string) => boolean {
  const patterns = origins.map((origin) =>
    origin.endsWith(":*") ? new RegExp(`^${escapeRegExp(origin.slice(0, -2))}(:\\d{1,5})?$`) : new RegExp(`^${escapeRegExp(origin)}$`),
  );
  return (origin) => patterns.some((pattern) => pattern.test(origin));
}

/**
 * CORS_ORIGINS as the entry points read it: unset or empty → the local default, `off` → no
 * CORS, `*` → any origin, else a comma-separated list of origins.
 */
export function corsFromEnv(raw: string | undefined): CorsOptions | false {
  const value = raw?.trim() ?? "";
  if (value === "") return { origins: defaultCorsOrigins };
  if (/^off$/i.test(value)) return false;
  if (value === "*") return { origins: "*" };
  const origins = value
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) throw new Error(`CORS_ORIGINS holds "${origin}", which is not an origin (scheme://host[:port], no path), "*" or "off"`);
  }
  return { origins };
}

/** The CORS middleware; `methods` are the methods the document serves, `exposedHeaders` its readable response headers (corsExposedHeaders). */
export function corsMiddleware(options: CorsOptions, methods: readonly string[], exposedHeaders: readonly string[]): RequestHandler {
  const allowed = options.origins === "*" ? undefined : originMatcher(options.origins);
  return cors({
    // A function answering false leaves the request without any CORS header.
    origin: allowed ? (origin, callback) => callback(null, origin !== undefined && allowed(origin)) : "*",
    methods: [...methods],
    allowedHeaders: corsAllowedHeaders,
    exposedHeaders: [...exposedHeaders],
    maxAge: corsMaxAgeSeconds,
    optionsSuccessStatus: 204,
  });
}
