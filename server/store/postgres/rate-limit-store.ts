// express-rate-limit's Store on the shared database, so N server processes enforce one limit
// per key: each hit is one atomic upsert that starts a new window when the old one is over.
// Expired rows are deleted on write: at most once per sweep interval a hit also deletes the
// counters whose window is over (found by their reset_at index), so the table holds the keys
// of the last window or so, not every key ever presented.
// Written here rather than taken from npm: the maintained PostgreSQL store
// (@acpr/rate-limit-postgresql 1.4.1) starts its own migrations from its constructor without
// awaiting them (a database down at start is an unhandled rejection, which ends the process),
// opens a second pool without an error listener, pins an older pg, and logs through console.
import type { ClientRateLimitInfo, Options, Store } from "express-rate-limit";
import type pg from "pg";
import type { CredentialPrefetch, CredentialRow } from "./credential-prefetch.js";
import { rateLimitHit, unscoped } from "./sql.js";
import { databaseProblem } from "./unavailable.js";

/** A database out of reach is the 503 problem here too (express-rate-limit passes it to the error mapper). */
async function guarded<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw databaseProblem(error);
  }
}

const sweepSql = `DELETE FROM rate_limits WHERE reset_at <= now()`;

export class PostgresRateLimitStore implements Store {
  /** Counters live in the database, shared by every process. */
  readonly localKeys = false;
  #windowMs = 60_000;
  #lastSweep = 0;

  constructor(
    private readonly pool: pg.Pool,
    /** Keeps several limiters on one table apart. */
    readonly prefix = "rl:",
    /** How often a hit also deletes expired counters (ms). */
    readonly sweepEveryMs = 10_000,
    /** Where a hit on an API key's counter leaves that key's credential row for the credential check. */
    private readonly prefetch?: CredentialPrefetch,
  ) {}

  /**
   * Deletes the expired counters (every limiter's: they share the table), at most once per
   * sweep interval, beside the hit that triggered it (in parallel, on another connection). A
   * failed sweep is left to the next one: it never decides an answer.
   */
  async #sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.#lastSweep < this.sweepEveryMs) return;
    this.#lastSweep = now;
    await this.pool.query(sweepSql).catch(() => undefined);
  }

  init(options: Options): void {
    this.#windowMs = options.windowMs;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const [counted] = await Promise.all([this.#hit(key), this.#sweep()]);
    return counted;
  }

  async #hit(key: string): Promise<ClientRateLimitInfo> {
    // The limiter's key of a request presenting an API key is `key:` + the key's SHA-256.
    const digest = this.prefetch && /^key:([0-9a-f]{64})$/.exec(key)?.[1];
    if (digest) {
      const row = (
        await guarded(
          this.pool.query<{ hits: number; reset_at: Date } & Partial<CredentialRow>>(unscoped.hitWithCredential, [
            this.prefix + key,
            this.#windowMs,
            Buffer.from(digest, "hex"),
          ]),
        )
      ).rows[0]!;
      this.prefetch!.put(
        digest,
        row.id === null || row.id === undefined ? undefined : { secret_digest: row.secret_digest!, id: row.id, organization_id: row.organization_id! },
      );
      return { totalHits: row.hits, resetTime: row.reset_at };
    }
    const row = (await guarded(this.pool.query<{ hits: number; reset_at: Date }>(rateLimitHit, [this.prefix + key, this.#windowMs]))).rows[0]!;
    return { totalHits: row.hits, resetTime: row.reset_at };
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const row = (
      await guarded(this.pool.query<{ hits: number; reset_at: Date }>("SELECT hits, reset_at FROM rate_limits WHERE key = $1 AND reset_at > now()", [this.prefix + key]))
    ).rows[0];
    return row === undefined ? undefined : { totalHits: row.hits, resetTime: row.reset_at };
  }

  async decrement(key: string): Promise<void> {
    await guarded(this.pool.query("UPDATE rate_limits SET hits = greatest(hits - 1, 0) WHERE key = $1", [this.prefix + key]));
  }

  async resetKey(key: string): Promise<void> {
    await guarded(this.pool.query("DELETE FROM rate_limits WHERE key = $1", [this.prefix + key]));
  }
}
