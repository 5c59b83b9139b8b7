// A cap on the requests one API key has in flight at once (in this process), apart from the
// per-window rate limit: a key inside its rate limit could still hold every database
// connection with a few dozen slow requests sent together and starve the other tenants.
// A request past the cap waits, in order, for a slot up to `maxWaitMs` (1 s), then is
// answered 429 with `Retry-After: 1`, before any store work: a client that ignores
// Retry-After and sends again at once is slowed to its waits rather than served a stream of
// cheap refusals that would still take the event loop from other tenants. A slot frees when
// its response is handed off or its client goes away (docs/security.md, Fair sharing). Requests
// without a key count per address, as the rate limiter keys them.
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { ApiProblem } from "../problems.js";
import { rateLimitKey } from "./rate-limit.js";

/** Requests one key may have in flight per process (the express entry's default). */
export const defaultConcurrencyLimit = 16;

/** The longest a request past the cap waits for a slot before its 429 (ms). */
export const concurrencyWaitMs = 1_000;

/**
 * At most `limit` holders per key at once; the others wait in order. `take` runs `enter` when
 * the key has a free slot: now (and returns undefined), or later (and returns a function that
 * takes the waiting `enter` out of the queue, false when it already ran). `enter` holds its
 * slot through `hold` until its response closes.
 */
function keyedSlots(limit: number) {
  const keys = new Map<string, { active: number; waiting: (() => void)[] }>();
  const release = (key: string) => {
    const slots = keys.get(key)!;
    const next = slots.waiting.shift();
    if (next) return next();
    if (--slots.active === 0) keys.delete(key);
  };
  return {
    take(key: string, enter: () => void): (() => boolean) | undefined {
      const slots = keys.get(key);
      if (!slots) keys.set(key, { active: 1, waiting: [] });
      else if (slots.active < limit) slots.active++;
      else {
        slots.waiting.push(enter);
        return () => {
          const at = slots.waiting.indexOf(enter);
          if (at !== -1) slots.waiting.splice(at, 1);
          return at !== -1;
        };
      }
      enter();
      return undefined;
    },
    /** Passes the request on holding the key's slot until its response closes. */
    hold(key: string, req: Request, res: Response, next: NextFunction): void {
      // A client gone meanwhile (its 'close' already fired) passes its slot on at once.
      if (res.destroyed || req.socket.destroyed) return release(key);
      // 'finish': the answer is handed off (a serverless adapter's response never emits
      // 'close'); 'close': the client went away first. Whichever comes first, once.
      let held = true;
      const free = () => {
        if (held) (held = false), release(key);
      };
      res.once("finish", free);
      res.once("close", free);
      next();
    },
  };
}

/** The middleware; `limit` requests in flight per key, the next ones wait up to `maxWaitMs`, then a `rate_limited` problem. */
export function concurrencyLimiter(limit: number, maxWaitMs = concurrencyWaitMs): RequestHandler {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrencyLimit must be a positive integer or false, got ${limit}`);
  const slots = keyedSlots(limit);
  return (req, res, next) => {
    const key = rateLimitKey(req);
    let timer: NodeJS.Timeout | undefined;
    const leave = slots.take(key, () => {
      clearTimeout(timer);
      slots.hold(key, req, res, next);
    });
    if (!leave) return;
    timer = setTimeout(() => {
      if (!leave()) return;
      next(
        new ApiProblem("rate_limited", `More than ${limit} requests in flight at once for this API key; retry after Retry-After seconds.`, undefined, {
          "Retry-After": "1",
          // This 429 comes before the rate limiter's step: the RateLimit fields the document
          // requires on it name the policy that refused, in the draft's unit for it.
          "RateLimit-Policy": `"concurrency"; q=${limit}; qu="concurrent-requests"`,
          RateLimit: `"concurrency"; r=0; t=1`,
        }),
      );
    }, maxWaitMs);
  };
}

/** Requests one client address may have in flight at once before further ones wait their turn. */
export const defaultAddressInFlight = 64;

/**
 * A queue per client address: at most `limit` of an address's requests are past this point at
 * once; the others wait, in order, for one to end (never refused, so many clients behind one
 * NAT are only slowed by each other). One address pipelining thousands of bogus keys thus
 * puts at most `limit` requests' statements in the database pool's queue, and another
 * address's requests wait behind those, not behind thousands.
 */
export function addressQueue(limit: number, trustsProxy: boolean): RequestHandler {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`addressInFlight must be a positive integer or false, got ${limit}`);
  const slots = keyedSlots(limit);
  return (req, res, next) => {
    // Without a trusted proxy req.ip is the socket's address, found by parsing X-Forwarded-For
    // on every request (about 1.5% of a request's CPU): read it directly then.
    const address = (trustsProxy ? req.ip : req.socket.remoteAddress) ?? "unknown";
    slots.take(address, () => slots.hold(address, req, res, next));
  };
}
