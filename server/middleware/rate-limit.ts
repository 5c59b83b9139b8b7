// Rate limiting per API key (express-rate-limit): the key is the bearer token or X-Api-Key,
// hashed so the limiter's memory never holds a credential; requests without one count per
// client IP. One application's traffic cannot use up another's quota.
import type { Request, RequestHandler } from "express";
import { rateLimit, ipKeyGenerator, type Store } from "express-rate-limit";
import { sha256Hex } from "../crypto/hash.js";
import { ApiProblem } from "../problems.js";
import { unlimitedRateLimitFields } from "./layer-headers.js";
import { bearerToken, header } from "./security.js";

/** Requests allowed per window per key. */
export interface RateLimitOptions {
  /** Requests per window. */
  limit: number;
  /** Window length in milliseconds. */
  windowMs: number;
  /** Where counters live (default: this process's memory); a shared store makes one limit across processes. */
  store?: Store;
}

export const defaultRateLimit: RateLimitOptions = { limit: 600, windowMs: 60_000 };

/** The credential a request presents, whichever scheme, or undefined. */
function presentedKey(req: Request): string | undefined {
  return bearerToken(req) ?? header(req, "x-api-key");
}

/** The limiter's key of a request: a digest of its API key, else its address. */
export function rateLimitKey(req: Request): string {
  const key = presentedKey(req);
  if (key) return `key:${sha256Hex(key)}`;
  return `ip:${ipKeyGenerator(req.ip ?? "unknown")}`;
}

/** The middleware; over the limit it passes a `rate_limited` problem to the error mapper. */
export function rateLimiter(options: RateLimitOptions): RequestHandler {
  return rateLimit({
    limit: options.limit,
    windowMs: options.windowMs,
    // IETF draft 8: `RateLimit: "default"; r=…; t=…` and `RateLimit-Policy: "default"; q=…; w=…`,
    // the policy name the document's header examples use; Retry-After on 429.
    standardHeaders: "draft-8",
    legacyHeaders: false,
    identifier: "default",
    keyGenerator: rateLimitKey,
    ...(options.store !== undefined && { store: options.store }),
    // The library has set Retry-After and the RateLimit headers by now; the mapper keeps them.
    handler: (_req, _res, next) => {
      const seconds = Math.ceil(options.windowMs / 1000);
      next(new ApiProblem("rate_limited", `More than ${options.limit} requests in ${seconds} s for this API key; retry after Retry-After seconds.`));
    },
  });
}

/** With the rate limit off (`rateLimit: false`, RATE_LIMIT=off), the RateLimit fields still go on every answer (layer-headers.ts). */
export function unlimitedRateLimitHeaders(): RequestHandler {
  return (_req, res, next) => {
    for (const [name, value] of Object.entries(unlimitedRateLimitFields)) res.setHeader(name, value);
    next();
  };
}
