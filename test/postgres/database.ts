// One throwaway cluster per test file: a database migrated to the latest version and a
// PostgreSQL store over it; reset(seed) loads a seed afresh. `unavailable` (printed once)
// says why the suite is skipped when PostgreSQL cannot run here (under CI it fails).
import { afterAll, beforeAll } from "vitest";
import pg from "pg";
import { migrate } from "../../server/store/postgres/migrate.js";
import { seedDatabase } from "../../server/store/postgres/seed.js";
import { createPostgresStore, type PostgresStore } from "../../server/store/postgres/index.js";
import type { Seed } from "../../server/seed/types.js";
import { realPart } from "../support/real-parts.js";
import { startCluster, type Cluster } from "./cluster.js";
import { useEmailAuthKey } from "../../server/crypto/email-auth.js";

export interface Database {
  cluster: Cluster;
  url: string;
  /** Admin pool (tests read tables directly through it). */
  pool: pg.Pool;
  store: PostgresStore;
  reset(seed: Seed): Promise<void>;
}

/**
 * The e-mail auth key of every PostgreSQL test file, in this process and in the servers and
 * commands it starts (they inherit the environment): a database accepts one key
 * (server/store/postgres/email-key.ts).
 */
export const testEmailAuthKey = "ab".repeat(32);
process.env.EMAIL_AUTH_KEY ||= testEmailAuthKey;
useEmailAuthKey(process.env.EMAIL_AUTH_KEY);

const started = await startCluster();
/**
 * Why the PostgreSQL suites skip here, or undefined when they run. Under CI a cluster that
 * cannot start fails the file instead (test/support/real-parts.ts).
 */
export const unavailable = realPart("unavailable" in started ? { part: "PostgreSQL", reason: started.unavailable, deliberate: started.deliberate } : undefined);

/** The database of this test file (set in beforeAll; only used when `unavailable` is undefined). */
export function useDatabase(options: { max?: number } = {}): Database {
  const db = {} as Database;
  beforeAll(async () => {
    if (unavailable !== undefined) return;
    const cluster = started as Cluster;
    cluster.createDatabase("authsvc");
    const url = cluster.urlOf("authsvc");
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    // Idle connections die when a test stops the server; that is expected, not a failure.
    pool.on("error", () => undefined);
    await migrate(pool);
    // A generous wait for a pooled connection: hundreds of updates at once on a busy machine
    // must not time out here (the bounded wait and its 503: unavailable.test.ts).
    const store = createPostgresStore({ connectionString: url, max: options.max ?? 10, connectionTimeoutMillis: 120_000 });
    Object.assign(db, { cluster, url, pool, store, reset: (seed: Seed) => seedDatabase(pool, seed) });
  });
  afterAll(async () => {
    if (unavailable !== undefined) return;
    await db.store.close();
    await db.pool.end();
    db.cluster.stop();
  });
  return db;
}
