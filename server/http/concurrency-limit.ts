// A cap on the requests one API key has in flight at once (in this process), apart from the
// per-window rate limit: a key inside its rate limit could still hold every database
// connection with a few dozen slow requests sent together and starve the other tenants. Past
// the cap a request is answered 429 with `Retry-After: 1` at once, before any store work;
// a slot frees when its response ends or its client goes away (docs/security.md, Fair
// sharing). Requests without a key count per address, as the rate limiter keys them.
import type { RequestHandler } from "express";
import { ApiProblem } from "../problems.js";
import { rateLimitKey } from "./rate-limit.js";

/** Requests one key may have in flight per process (the express entry's default). */
export const defaultConcurrencyLimit = 16;

/** The middleware; `limit` requests in flight per key, the next one a `rate_limited` problem. */
export function concurrencyLimiter(limit: number): RequestHandler {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrencyLimit must be a positive integer or false, got ${limit}`);
  const inFlight = new Map<string, number>();
  return (req, res, next) => {
    const key = rateLimitKey(req);
    const held = inFlight.get(key) ?? 0;
    if (held >= limit) {
      return next(
        new ApiProblem("rate_limited", `More than ${limit} requests in flight at once for this API key; retry after Retry-After seconds.`, undefined, { "Retry-After": "1" }),
      );
    }
    // A client gone while earlier steps awaited (its 'close' already fired) takes no slot: the
    // slot would never be given back.
    if (res.destroyed || req.socket.destroyed) return next();
    inFlight.set(key, held + 1);
    // 'close' follows 'finish' and also fires when the client goes away first: once per response.
    res.once("close", () => {
      const left = (inFlight.get(key) ?? 1) - 1;
      if (left === 0) inFlight.delete(key);
      else inFlight.set(key, left);
    });
    next();
  };
}
