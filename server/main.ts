// The entry point (`npm start`): the reference server with the demo data, or SEED_FILE's.
// Environment: PORT (3000), HOST (127.0.0.1), SEED_FILE, LOG_LEVEL (info), EMAIL_AUTH_KEY (required
// with DATABASE_URL, and must be the database's key),
// RATE_LIMIT (requests per window per API key, 600; `off` disables), RATE_LIMIT_WINDOW_MS
// (60000), FAILED_AUTH_LIMIT (401s per window per client address, 60; `off` disables),
// FAILED_AUTH_LIMIT_WINDOW_MS (60000), CONCURRENCY_LIMIT (requests one API key may have in
// flight at once, 16, or a quarter of the pool with DATABASE_URL; off when RATE_LIMIT is; `off`
// disables), TRUST_PROXY (hop count or comma list of proxy addresses/CIDRs; default off:
// server/http/trust-proxy.ts), DATABASE_STATEMENT_TIMEOUT_MS (2000), VALIDATE_RESPONSES (true unless NODE_ENV=production), CORS_ORIGINS (comma list of
// origins, `*` or `off`; default http://localhost:* and http://127.0.0.1:*), DATABASE_URL (serve from
// PostgreSQL, migrated at start, both rate limits shared through it: docs/postgres.md; SEED_FILE
// is then unused, `npm run db:seed` loads one), DATABASE_POOL_MAX (10 connections),
// DATABASE_POOL_WAIT_MS (5000: how long a request waits for a free connection, then 503). SIGTERM/SIGINT stop accepting connections,
// finish in-flight requests, exit 0.
import { describeKeySource } from "./crypto/email-auth.js";
import { integerEnv } from "./env.js";
import { corsFromEnv } from "./http/cors.js";
import { createLogger } from "./http/logging.js";
import { defaultConcurrencyLimit } from "./http/concurrency-limit.js";
import { defaultFailedAuthLimit } from "./http/failed-auth-limit.js";
import { trustProxyFromEnv } from "./http/trust-proxy.js";
import { defaultRateLimit, type RateLimitOptions } from "./http/rate-limit.js";
import { startServer } from "./listen.js";
import { demoSeedFile, loadSeed } from "./seed/load.js";
import { createStore } from "./store/memory.js";
import type { Store } from "./domain/index.js";
import type { OpenedDatabase } from "./store/postgres/open.js";
import type { Seed } from "./seed/types.js";
import type { LevelWithSilent } from "pino";

function rateLimitFromEnv(store: RateLimitOptions["store"]): RateLimitOptions | false {
  if (/^(off|false|0)$/i.test(process.env.RATE_LIMIT ?? "")) return false;
  return {
    limit: integerEnv("RATE_LIMIT", defaultRateLimit.limit),
    windowMs: integerEnv("RATE_LIMIT_WINDOW_MS", defaultRateLimit.windowMs),
    store,
  };
}

function failedAuthLimitFromEnv(store: RateLimitOptions["store"]): RateLimitOptions | false {
  if (/^(off|false|0)$/i.test(process.env.FAILED_AUTH_LIMIT ?? "")) return false;
  return {
    limit: integerEnv("FAILED_AUTH_LIMIT", defaultFailedAuthLimit.limit),
    windowMs: integerEnv("FAILED_AUTH_LIMIT_WINDOW_MS", defaultFailedAuthLimit.windowMs),
    store,
  };
}

/**
 * CONCURRENCY_LIMIT; by default a quarter of the database pool (one key never holds more than
 * a quarter of the connections, and its queries a bounded share of the database's CPU), or
 * the entry's default in memory.
 */
function concurrencyLimitFromEnv(poolMax: number | undefined, rateLimited: boolean): number | false {
  if (/^(off|false)$/i.test(process.env.CONCURRENCY_LIMIT ?? "")) return false;
  if (!rateLimited && !process.env.CONCURRENCY_LIMIT) return false;
  const limit = integerEnv("CONCURRENCY_LIMIT", poolMax === undefined ? defaultConcurrencyLimit : Math.max(1, Math.floor(poolMax / 4)));
  if (limit === 0) throw new Error(`CONCURRENCY_LIMIT must be a positive integer or off, got "0"`);
  return limit;
}

const logLevels: readonly LevelWithSilent[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** The log level: LOG_LEVEL, default info (the one place that reads it). */
function logLevelFromEnv(): LevelWithSilent {
  const raw = process.env.LOG_LEVEL;
  if (raw === undefined || raw === "") return "info";
  if (!(logLevels as readonly string[]).includes(raw)) throw new Error(`LOG_LEVEL must be one of ${logLevels.join(", ")}, got "${raw}"`);
  return raw as LevelWithSilent;
}

/** Response validation: on in development and tests, off under NODE_ENV=production; VALIDATE_RESPONSES=true|false decides. */
function validateResponsesFromEnv(): boolean {
  const raw = process.env.VALIDATE_RESPONSES;
  if (raw === "true" || raw === "false") return raw === "true";
  if (raw) throw new Error(`VALIDATE_RESPONSES must be true or false, got "${raw}"`);
  return process.env.NODE_ENV !== "production";
}

/**
 * The start-up lines naming each application the store holds, with its demo credentials:
 * the store keeps only digests, so the clear values come from the demo seed (public demo
 * values; no other seed's credentials are ever printed).
 */
async function demoCredentials(store: Store, demoSeed: Seed): Promise<string[]> {
  const clear = new Map(demoSeed.applications.map((application) => [application.id, application.credentials]));
  return (await store.applications()).flatMap((application) =>
    (clear.get(application.id) ?? []).flatMap((credential) =>
      "api_key" in credential && "api_secret" in credential
        ? [`  ${application.name} (${application.id}): API key ${credential.api_key}  API secret ${credential.api_secret}`]
        : [],
    ),
  );
}

async function main(): Promise<void> {
  const seedFile = process.env.SEED_FILE || undefined;
  const logger = createLogger(logLevelFromEnv());

  let database: OpenedDatabase | undefined;
  const databaseUrl = process.env.DATABASE_URL || undefined;
  // Loaded only with a database, so the in-memory server needs no `pg`.
  const poolMax = databaseUrl ? integerEnv("DATABASE_POOL_MAX", 10) : undefined;
  if (databaseUrl) {
    // Every process on a database must seal with the same e-mail auth key: refused without
    // EMAIL_AUTH_KEY, or with one other than the database's (server/store/postgres/email-key.ts).
    const { checkEmailAuthKey, requireSharedKey } = await import("./store/postgres/email-key.js");
    requireSharedKey();
    const waitMs = integerEnv("DATABASE_POOL_WAIT_MS", 5_000);
    database = await (await import("./store/postgres/open.js")).openDatabase(databaseUrl, {
      max: poolMax,
      connectionTimeoutMillis: waitMs,
      statementTimeoutMs: integerEnv("DATABASE_STATEMENT_TIMEOUT_MS", 2_000),
    });
    await checkEmailAuthKey(database.store.pool, database.where);
  }
  const seed = loadSeed(database ? undefined : seedFile);
  const keySource = describeKeySource();
  const rateLimit = rateLimitFromEnv(database?.rateLimitStore);
  // SIGTERM/SIGINT drain through the same `listen` a service gets (server/express/listen.ts);
  // its listeners exist before the port opens, so a client that signals as soon as it sees
  // the URL printed gets a drain, not a kill.
  const running = await startServer({
    signals: ["SIGTERM", "SIGINT"],
    onSignal: (signal) => logger.info({ signal }, "shutting down: finishing in-flight requests"),
    onClosed: async () => {
      await database?.store.close();
      logger.info("server closed");
      logger.flush();
    },
    onCloseError: (error) => logger.error({ err: error }, "shutdown failed"),
    store: database?.store ?? createStore(seed),
    logger,
    port: integerEnv("PORT", 3000),
    host: process.env.HOST || "127.0.0.1",
    rateLimit,
    failedAuthLimit: failedAuthLimitFromEnv(database?.failedAuthStore),
    concurrencyLimit: concurrencyLimitFromEnv(poolMax, rateLimit !== false),
    trustProxy: trustProxyFromEnv(process.env.TRUST_PROXY),
    validateResponses: validateResponsesFromEnv(),
    cors: corsFromEnv(process.env.CORS_ORIGINS),
  });

  const lines = [
    `Reference server listening on ${running.url}`,
    database ? `Store: PostgreSQL at ${database.where} (DATABASE_URL)` : `Seed: ${seedFile ?? `demo data (${demoSeedFile})`}`,
    keySource === "environment"
      ? "E-mail auth encryption key: from EMAIL_AUTH_KEY"
      : "E-mail auth encryption key: random per process (set EMAIL_AUTH_KEY, 64 hex characters, to keep tokens across restarts)",
  ];
  if (database && (await running.store.applications()).length === 0) lines.push("The database holds no application yet: npm run db:seed loads the demo data.");
  else if (database || seedFile === undefined || seedFile === demoSeedFile) lines.push("Demo credentials:", ...(await demoCredentials(running.store, seed)));
  console.log(lines.join("\n"));
  logger.info({ url: running.url, emailAuthKey: keySource }, "server started");
}

main().catch((error: unknown) => {
  // A bad seed (the message names the path), a bad variable, a port in use, or a database out of reach.
  console.error(`Cannot start the reference server: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
