// A limit on failed authentication per client address, apart from the per-key limit: the
// per-key limiter counts each presented key on its own, so a client trying many bogus keys
// was never limited. Only 401 answers count; past the limit every request from the address
// is a 429 until the window ends.
import type { Request, RequestHandler } from "express";
import { rateLimit, ipKeyGenerator } from "express-rate-limit";
import { ApiProblem } from "../problems.js";
import type { RateLimitOptions } from "./rate-limit.js";

/** 60 failed authentications per minute per address. */
export const defaultFailedAuthLimit: RateLimitOptions = { limit: 60, windowMs: 60_000 };

interface Counted {
  failedAuthLimit?: { resetTime?: Date };
}

/** The middleware, before the per-key limiter; over the limit it passes a `rate_limited` problem with Retry-After. */
export function failedAuthLimiter(options: RateLimitOptions): RequestHandler {
  return rateLimit({
    limit: options.limit,
    windowMs: options.windowMs,
    // The per-key limiter owns the RateLimit headers the document declares; this one adds
    // only Retry-After, on its own 429.
    standardHeaders: false,
    legacyHeaders: false,
    requestPropertyName: "failedAuthLimit",
    keyGenerator: (req) => `failed-auth:${ipKeyGenerator(req.ip ?? "unknown")}`,
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req, res) => res.statusCode !== 401,
    ...(options.store !== undefined && { store: options.store }),
    handler: (req: Request, _res, next) => {
      const reset = (req as Request & Counted).failedAuthLimit?.resetTime?.getTime() ?? Date.now() + options.windowMs;
      const retryAfter = String(Math.max(1, Math.ceil((reset - Date.now()) / 1000)));
      const seconds = Math.ceil(options.windowMs / 1000);
      next(
        new ApiProblem(
          "rate_limited",
          `More than ${options.limit} failed authentications in ${seconds} s from this address; retry after Retry-After seconds.`,
          undefined,
          { "Retry-After": retryAfter },
        ),
      );
    },
  });
}
