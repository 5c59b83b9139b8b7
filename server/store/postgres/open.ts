// What the reference server (server/reference-server.ts) needs to serve from PostgreSQL: a
// pool checked with `SELECT 1` (a database out of reach stops the start with one line rather
// than 503s later), the schema migrated, the store, and the rate-limit store on the same pool
// so every process counts against one limit per key.
import type { Store as RateLimitStore } from "express-rate-limit";
import { createPostgresStore, type PostgresStore, type PostgresStoreOptions } from "./index.js";
import { migrate } from "./migrate.js";
import { PostgresRateLimitStore } from "./rate-limit-store.js";

export interface OpenedDatabase {
  store: PostgresStore;
  /** The per-key rate limit's counters, shared by every process on the database. */
  rateLimitStore: RateLimitStore;
  /** The per-address failed-authentication limit's counters, shared likewise. */
  failedAuthStore: RateLimitStore;
  /** Where it is, without user or password (for the start-up lines). */
  where: string;
}

/** host:port/database of a connection URL: never its user or password. */
export function describeDatabase(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`;
  } catch {
    return "(DATABASE_URL is not a URL)";
  }
}

/** The first line of what went wrong; pg's refused connections may carry only a code. */
function reasonOf(error: unknown): string {
  const { message, code, errors } = error as { message?: string; code?: string; errors?: unknown[] };
  const text = message || code || (errors?.[0] !== undefined ? reasonOf(errors[0]) : String(error));
  return text.split("\n")[0]!;
}

/** Opens the database at `url` or throws an Error whose message is one line naming why. */
export async function openDatabase(url: string, options: Omit<PostgresStoreOptions, "connectionString"> = {}): Promise<OpenedDatabase> {
  const where = describeDatabase(url);
  const store = createPostgresStore({ ...options, connectionString: url });
  try {
    await store.pool.query("SELECT 1");
    await migrate(store.pool);
  } catch (error) {
    await store.close().catch(() => undefined);
    throw new Error(`the database at ${where} cannot be used: ${reasonOf(error)}`);
  }
  return {
    store,
    // The per-key limiter's hit also reads the key's credential: one round trip before the handler.
    rateLimitStore: new PostgresRateLimitStore(store.pool, "rl:", undefined, store.credentialPrefetch),
    failedAuthStore: new PostgresRateLimitStore(store.pool, "fa:"),
    where,
  };
}
