// Versioned schema: plain SQL files `migrations/NNN_name.sql`, applied in order, each in its
// own transaction with its version recorded in `schema_migrations`. Plain files rather than
// a migration tool: the schema is a handful of tables, SQL is what a reviewer reads anyway,
// and the runner is this one function. An advisory lock lets several processes start at once.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Pool } from "pg";

export const migrationsDir = fileURLToPath(new URL("../../../migrations/", import.meta.url));

/** Any constant shared by every migrating process (the lock is per database). */
const migrationLock = 13_001;

interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The migration files, by version. */
export function migrations(dir = migrationsDir): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d+_[\w-]+\.sql$/.test(file))
    .map((file) => ({ version: Number(file.split("_")[0]), name: file, sql: readFileSync(dir + file, "utf8") }))
    .sort((a, b) => a.version - b.version);
}

/** Applies the migrations not yet applied; returns the names it applied. */
export async function migrate(pool: Pool, dir = migrationsDir): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    // Waiting for another process's migrations, or building an index on a large table, is
    // not a request: no statement timeout for this connection until it goes back to the pool.
    await client.query("SET statement_timeout = 0");
    await client.query("SELECT pg_advisory_lock($1)", [migrationLock]);
    await client.query("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
    const done = new Set((await client.query<{ version: number }>("SELECT version FROM schema_migrations")).rows.map((row) => row.version));
    for (const migration of migrations(dir)) {
      if (done.has(migration.version)) continue;
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [migration.version, migration.name]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${migration.name}: ${(error as Error).message}`);
      }
      applied.push(migration.name);
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [migrationLock]).catch(() => undefined);
    await client.query("RESET statement_timeout").catch(() => undefined);
    client.release();
  }
  return applied;
}
