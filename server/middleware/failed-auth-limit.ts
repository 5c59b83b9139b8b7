// A limit on failed authentication per client address, apart from the per-key limit: the
// per-key limiter counts each presented key on its own, so a client trying many bogus keys
// is limited here (docs/security.md, Failed authentication).
//
// Only failures are throttled, never the address: a request is always checked, and a valid
// key from an address past its limit is served (anyone behind one NAT keeps working while
// someone there tries bogus keys; keys carry 64 random bits, so guessing within the limit
// is moot). A failure is counted when it happens, in one atomic increment (one statement on
// PostgreSQL, a synchronous update in memory) whose result decides the answer: up to the
// limit the 401, past it a 429 with Retry-After. Nothing reads the counter first, so
// concurrent or pipelined failures cannot all pass a stale check. If the counter cannot be
// updated the request is refused (503 or 500), never answered as if it had been counted.
import type { ErrorRequestHandler, Request } from "express";
import { ipKeyGenerator, type ClientRateLimitInfo, type Store } from "express-rate-limit";
import { ApiProblem } from "../problems.js";
import type { RateLimitOptions } from "./rate-limit.js";

/** 60 failed authentications per minute per address. */
export const defaultFailedAuthLimit: RateLimitOptions = { limit: 60, windowMs: 60_000 };

/** The counter's key of a request: its client address (req.ip, which `trustProxy` decides). */
export const failedAuthKey = (req: Request) => `failed-auth:${ipKeyGenerator(req.ip ?? "unknown")}`;

/**
 * Fixed-window failure counters in this process's memory. Each increment answers its own
 * snapshot: express-rate-limit's MemoryStore answers its live counter object, so failures
 * that resume after one another's increments would all read the last count.
 */
export class FailureMemoryStore implements Store {
  readonly #counters = new Map<string, { totalHits: number; resetTime: Date }>();
  #windowMs = defaultFailedAuthLimit.windowMs;
  #nextSweep = 0;

  init(options: { windowMs: number }): void {
    this.#windowMs = options.windowMs;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const now = Date.now();
    // Expired counters go once per window, so the map holds the addresses of about one window.
    if (now >= this.#nextSweep) {
      for (const [counted, counter] of this.#counters) if (counter.resetTime.getTime() <= now) this.#counters.delete(counted);
      this.#nextSweep = now + this.#windowMs;
    }
    let counter = this.#counters.get(key);
    if (!counter || counter.resetTime.getTime() <= now) this.#counters.set(key, (counter = { totalHits: 0, resetTime: new Date(now + this.#windowMs) }));
    counter.totalHits++;
    return { totalHits: counter.totalHits, resetTime: counter.resetTime };
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const counter = this.#counters.get(key);
    return counter && counter.resetTime.getTime() > Date.now() ? { ...counter } : undefined;
  }

  async decrement(key: string): Promise<void> {
    const counter = this.#counters.get(key);
    if (counter && counter.totalHits > 0) counter.totalHits--;
  }

  async resetKey(key: string): Promise<void> {
    this.#counters.delete(key);
  }
}

const isUnauthorized = (error: unknown): error is ApiProblem => error instanceof ApiProblem && error.code === "unauthorized";

/**
 * The error-handling middleware, mounted after the operations and before the error mapper:
 * it sees each 401 the credential check raised, counts it, and passes on either that 401 or,
 * past the limit, a `rate_limited` problem with Retry-After.
 */
export function failedAuthLimiter(options: RateLimitOptions): ErrorRequestHandler {
  // A given store must answer each increment with its own count (as the PostgreSQL store does).
  const store = options.store ?? new FailureMemoryStore();
  store.init?.({ windowMs: options.windowMs } as never);
  const seconds = Math.ceil(options.windowMs / 1000);
  return async (error, req, _res, next) => {
    if (!isUnauthorized(error)) return next(error);
    let counted;
    try {
      counted = await store.increment(failedAuthKey(req));
    } catch (storeError) {
      return next(storeError);
    }
    if (counted.totalHits <= options.limit) return next(error);
    const reset = counted.resetTime?.getTime() ?? Date.now() + options.windowMs;
    const retryAfter = String(Math.max(1, Math.ceil((reset - Date.now()) / 1000)));
    const detail = `More than ${options.limit} failed authentications in ${seconds} s from this address; retry after Retry-After seconds (valid credentials are still served).`;
    next(new ApiProblem("rate_limited", detail, undefined, { "Retry-After": retryAfter }));
  };
}
