// express-rate-limit's Store on the shared database, so N server processes enforce one limit
// per key: each hit is one atomic upsert that starts a new window when the old one is over.
// Written here rather than taken from npm: the maintained PostgreSQL store
// (@acpr/rate-limit-postgresql 1.4.1) starts its own migrations from its constructor without
// awaiting them (a database down at start is an unhandled rejection, which ends the process),
// opens a second pool without an error listener, pins an older pg, and logs through console.
import type { ClientRateLimitInfo, Options, Store } from "express-rate-limit";
import type pg from "pg";
import { isUnavailable, unavailableProblem } from "./unavailable.js";

const incrementSql = `INSERT INTO rate_limits AS r (key, hits, reset_at) VALUES ($1, 1, now() + make_interval(secs => $2 / 1000.0))
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN r.reset_at <= now() THEN 1 ELSE r.hits + 1 END,
    reset_at = CASE WHEN r.reset_at <= now() THEN excluded.reset_at ELSE r.reset_at END
  RETURNING hits, reset_at`;

/** A database out of reach is the 503 problem here too (express-rate-limit passes it to the error mapper). */
async function guarded<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw isUnavailable(error) ? unavailableProblem() : error;
  }
}

export class PostgresRateLimitStore implements Store {
  /** Counters live in the database, shared by every process. */
  readonly localKeys = false;
  #windowMs = 60_000;

  constructor(
    private readonly pool: pg.Pool,
    /** Keeps several limiters on one table apart. */
    readonly prefix = "rl:",
  ) {}

  init(options: Options): void {
    this.#windowMs = options.windowMs;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const row = (await guarded(this.pool.query<{ hits: number; reset_at: Date }>(incrementSql, [this.prefix + key, this.#windowMs]))).rows[0]!;
    return { totalHits: row.hits, resetTime: row.reset_at };
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const row = (await guarded(this.pool.query<{ hits: number; reset_at: Date }>("SELECT hits, reset_at FROM rate_limits WHERE key = $1 AND reset_at > now()", [this.prefix + key]))).rows[0];
    return row === undefined ? undefined : { totalHits: row.hits, resetTime: row.reset_at };
  }

  async decrement(key: string): Promise<void> {
    await guarded(this.pool.query("UPDATE rate_limits SET hits = greatest(hits - 1, 0) WHERE key = $1", [this.prefix + key]));
  }

  async resetKey(key: string): Promise<void> {
    await guarded(this.pool.query("DELETE FROM rate_limits WHERE key = $1", [this.prefix + key]));
  }
}
