// The configuration of the entry points, read from the environment in this one place: each
// variable parsed once into a typed object that the entry points pass on, so the server, the
// mock and the database commands agree on names, defaults and messages. An empty variable
// means its default; a bad value is refused with a message naming it, never read as 0 or NaN.
// docs/reference-server.md lists every variable (test/server/config.test.ts checks it does).
import type { LevelWithSilent } from "pino";
import { defaultConcurrencyLimit } from "./middleware/concurrency-limit.js";
import { corsFromEnv, type CorsOptions } from "./middleware/cors.js";
import { defaultFailedAuthLimit } from "./middleware/failed-auth-limit.js";
import { defaultRateLimit } from "./middleware/rate-limit.js";
import { trustProxyFromEnv, type TrustProxy } from "./middleware/trust-proxy.js";

/** The variables read: process.env unless a caller gives its own (the CLI, tests). */
export type Environment = Readonly<Record<string, string | undefined>>;

/** A limit of requests per window (a rate limit, or the failed-authentication limit). */
export interface WindowLimit {
  limit: number;
  windowMs: number;
}

/** DATABASE_URL and the pool's settings (docs/postgres.md). */
export interface DatabaseConfig {
  url: string;
  /** DATABASE_POOL_MAX: connections in the pool (10). */
  poolMax: number;
  /** DATABASE_POOL_WAIT_MS: how long a request waits for a free connection, then 503 (5000). */
  poolWaitMs: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS (2000). */
  statementTimeoutMs: number;
}

/** What the reference server (`npm start`, `authsvc-api serve`) runs with. */
export interface ServerConfig {
  /** PORT (3000; 0 picks a free one). */
  port: number;
  /** HOST (127.0.0.1). */
  host: string;
  /** SEED_FILE: a seed instead of the demo data (unused with a database). */
  seedFile: string | undefined;
  /** LOG_LEVEL (info). */
  logLevel: LevelWithSilent;
  /** EMAIL_AUTH_KEY as given (64 hex characters, checked by server/crypto/email-auth.ts); undefined for a random key per process. */
  emailAuthKey: string | undefined;
  /** Serve from PostgreSQL (DATABASE_URL); undefined: in memory. */
  database: DatabaseConfig | undefined;
  /** RATE_LIMIT, RATE_LIMIT_WINDOW_MS: requests per window per API key (600 per 60000 ms); false: `off`. */
  rateLimit: WindowLimit | false;
  /** FAILED_AUTH_LIMIT, FAILED_AUTH_LIMIT_WINDOW_MS: 401s per window per client address (60 per 60000 ms); false: `off`. */
  failedAuthLimit: WindowLimit | false;
  /** CONCURRENCY_LIMIT: requests one API key may have in flight (16, or a quarter of the pool); false: `off`, or the rate limit is off. */
  concurrencyLimit: number | false;
  /** TRUST_PROXY: off by default (server/middleware/trust-proxy.ts). */
  trustProxy: TrustProxy;
  /** VALIDATE_RESPONSES: true unless NODE_ENV=production. */
  validateResponses: boolean;
  /** CORS_ORIGINS: comma list of origins, `*` or `off` (default http://localhost:* and http://127.0.0.1:*). */
  cors: CorsOptions | false;
}

/** What `npm run mock` runs with. */
export interface MockConfig {
  /** PORT (4010). */
  port: number;
  /** HOST (127.0.0.1). */
  host: string;
  /** MOCK_DYNAMIC=true: generated data instead of the documented examples. */
  dynamic: boolean;
  /** MOCK_PAGES: pages every list spans (unset: the documented records, or 3 pages of generated data). */
  pages?: number;
  /** RATE_LIMIT, RATE_LIMIT_WINDOW_MS as the server reads them, but off unless set (`on`: the server's 600 per 60000 ms). */
  rateLimit: WindowLimit | false;
  /** FAILED_AUTH_LIMIT, FAILED_AUTH_LIMIT_WINDOW_MS as the server reads them, but off unless set (`on`: 60 per 60000 ms). */
  failedAuthLimit: WindowLimit | false;
}

/** What the database commands (`npm run db:migrate`, `db:seed`, `db:rotate-email-key`) run with. */
export interface DatabaseCommandConfig {
  /** DATABASE_URL (required). */
  url: string | undefined;
  /** EMAIL_AUTH_KEY. */
  emailAuthKey: string | undefined;
  /** OLD_EMAIL_AUTH_KEY: the key to re-seal from (db:rotate-email-key). */
  oldEmailAuthKey: string | undefined;
}

/** A non-negative integer variable; unset or empty gives `fallback`, anything else not all digits throws. */
export function integerEnv(env: Environment, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

/** MOCK_PAGES: a positive integer. */
function pagesEnv(env: Environment): number {
  const pages = integerEnv(env, "MOCK_PAGES", 1);
  if (pages < 1) throw new Error(`MOCK_PAGES must be 1 or more, got "${env.MOCK_PAGES}"`);
  return pages;
}

/** A variable's value, with empty read as unset. */
function stringEnv(env: Environment, name: string): string | undefined {
  return env[name] || undefined;
}

function windowLimitFromEnv(env: Environment, name: string, windowName: string, fallback: WindowLimit): WindowLimit | false {
  if (/^(off|false|0)$/i.test(env[name] ?? "")) return false;
  return { limit: integerEnv(env, name, fallback.limit), windowMs: integerEnv(env, windowName, fallback.windowMs) };
}

/**
 * A limit the mock applies only when asked (a test double must not throttle a test suite):
 * unset or empty is off, `on` is the server's default, anything else is read as the server
 * reads it (a number, or `off`), with the server's messages.
 */
export function optInLimitFromEnv(env: Environment, name: string, windowName: string, fallback: WindowLimit): WindowLimit | false {
  const raw = env[name];
  if (raw === undefined || raw === "") return false;
  return windowLimitFromEnv({ ...env, [name]: /^on$/i.test(raw) ? undefined : raw }, name, windowName, fallback);
}

/**
 * CONCURRENCY_LIMIT; by default a quarter of the database pool (one key never holds more than
 * a quarter of the connections, and its queries a bounded share of the database's CPU), or
 * the entry's default in memory.
 */
function concurrencyLimitFromEnv(env: Environment, poolMax: number | undefined, rateLimited: boolean): number | false {
  if (/^(off|false)$/i.test(env.CONCURRENCY_LIMIT ?? "")) return false;
  if (!rateLimited && !env.CONCURRENCY_LIMIT) return false;
  const limit = integerEnv(env, "CONCURRENCY_LIMIT", poolMax === undefined ? defaultConcurrencyLimit : Math.max(1, Math.floor(poolMax / 4)));
  if (limit === 0) throw new Error(`CONCURRENCY_LIMIT must be a positive integer or off, got "0"`);
  return limit;
}

const logLevels: readonly LevelWithSilent[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

function logLevelFromEnv(env: Environment): LevelWithSilent {
  const raw = env.LOG_LEVEL;
  if (raw === undefined || raw === "") return "info";
  if (!(logLevels as readonly string[]).includes(raw)) throw new Error(`LOG_LEVEL must be one of ${logLevels.join(", ")}, got "${raw}"`);
  return raw as LevelWithSilent;
}

/** Response validation: on in development and tests, off under NODE_ENV=production; VALIDATE_RESPONSES=true|false decides. */
function validateResponsesFromEnv(env: Environment): boolean {
  const raw = env.VALIDATE_RESPONSES;
  if (raw === "true" || raw === "false") return raw === "true";
  if (raw) throw new Error(`VALIDATE_RESPONSES must be true or false, got "${raw}"`);
  return env.NODE_ENV !== "production";
}

function databaseFromEnv(env: Environment): DatabaseConfig | undefined {
  const url = stringEnv(env, "DATABASE_URL");
  if (url === undefined) return undefined;
  return {
    url,
    poolMax: integerEnv(env, "DATABASE_POOL_MAX", 10),
    poolWaitMs: integerEnv(env, "DATABASE_POOL_WAIT_MS", 5_000),
    statementTimeoutMs: integerEnv(env, "DATABASE_STATEMENT_TIMEOUT_MS", 2_000),
  };
}

/** The reference server's configuration; throws an Error naming the first bad variable. */
export function serverConfigFromEnv(env: Environment = process.env): ServerConfig {
  const logLevel = logLevelFromEnv(env);
  const database = databaseFromEnv(env);
  const rateLimit = windowLimitFromEnv(env, "RATE_LIMIT", "RATE_LIMIT_WINDOW_MS", defaultRateLimit);
  return {
    port: integerEnv(env, "PORT", 3000),
    host: stringEnv(env, "HOST") ?? "127.0.0.1",
    seedFile: stringEnv(env, "SEED_FILE"),
    logLevel,
    emailAuthKey: emailAuthKeyFromEnv(env),
    database,
    rateLimit,
    failedAuthLimit: windowLimitFromEnv(env, "FAILED_AUTH_LIMIT", "FAILED_AUTH_LIMIT_WINDOW_MS", defaultFailedAuthLimit),
    concurrencyLimit: concurrencyLimitFromEnv(env, database?.poolMax, rateLimit !== false),
    trustProxy: trustProxyFromEnv(env.TRUST_PROXY),
    validateResponses: validateResponsesFromEnv(env),
    cors: corsFromEnv(env.CORS_ORIGINS),
  };
}

/** The mock's configuration (`npm run mock`; `authsvc-api mock` reads its limits); throws an Error naming a bad variable. */
export function mockConfigFromEnv(env: Environment = process.env): MockConfig {
  return {
    port: integerEnv(env, "PORT", 4010),
    host: stringEnv(env, "HOST") ?? "127.0.0.1",
    dynamic: env.MOCK_DYNAMIC === "true",
    ...(stringEnv(env, "MOCK_PAGES") === undefined ? {} : { pages: pagesEnv(env) }),
    rateLimit: optInLimitFromEnv(env, "RATE_LIMIT", "RATE_LIMIT_WINDOW_MS", defaultRateLimit),
    failedAuthLimit: optInLimitFromEnv(env, "FAILED_AUTH_LIMIT", "FAILED_AUTH_LIMIT_WINDOW_MS", defaultFailedAuthLimit),
  };
}

/** The database commands' configuration (each command says which of them it needs). */
export function databaseCommandConfigFromEnv(env: Environment = process.env): DatabaseCommandConfig {
  return { url: stringEnv(env, "DATABASE_URL"), emailAuthKey: emailAuthKeyFromEnv(env), oldEmailAuthKey: stringEnv(env, "OLD_EMAIL_AUTH_KEY") };
}

/**
 * EMAIL_AUTH_KEY as given, empty read as unset. Also the key of a process whose entry point
 * configured none (tests, a store built directly): server/crypto/email-auth.ts asks here.
 */
export function emailAuthKeyFromEnv(env: Environment = process.env): string | undefined {
  return stringEnv(env, "EMAIL_AUTH_KEY");
}
