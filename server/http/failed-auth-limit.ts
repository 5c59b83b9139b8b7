// A limit on failed authentication per client address, apart from the per-key limit: the
// per-key limiter counts each presented key on its own, so a client trying many bogus keys
// was never limited. Only answers 401 are counted (after they are sent, so many concurrent
// good requests from one address never count); past the limit every request from the
// address is a 429 until the window ends. Counters live in express-rate-limit's store.
import type { RequestHandler } from "express";
import { ipKeyGenerator, MemoryStore } from "express-rate-limit";
import { ApiProblem } from "../problems.js";
import type { RateLimitOptions } from "./rate-limit.js";

/** 60 failed authentications per minute per address. */
export const defaultFailedAuthLimit: RateLimitOptions = { limit: 60, windowMs: 60_000 };

/** The middleware, before the per-key limiter; over the limit it passes a `rate_limited` problem with Retry-After. */
export function failedAuthLimiter(options: RateLimitOptions): RequestHandler {
  const store = options.store ?? new MemoryStore();
  void store.init?.({ windowMs: options.windowMs } as never);
  const seconds = Math.ceil(options.windowMs / 1000);
  return async (req, res, next) => {
    const key = `failed-auth:${ipKeyGenerator(req.ip ?? "unknown")}`;
    try {
      const counted = await store.get?.(key);
      if (counted && counted.totalHits >= options.limit) {
        const reset = counted.resetTime?.getTime() ?? Date.now() + options.windowMs;
        const retryAfter = String(Math.max(1, Math.ceil((reset - Date.now()) / 1000)));
        const detail = `More than ${options.limit} failed authentications in ${seconds} s from this address; retry after Retry-After seconds.`;
        return next(new ApiProblem("rate_limited", detail, undefined, { "Retry-After": retryAfter }));
      }
    } catch (error) {
      return next(error);
    }
    res.once("finish", () => {
      if (res.statusCode === 401) Promise.resolve(store.increment(key)).catch(() => undefined);
    });
    next();
  };
}
