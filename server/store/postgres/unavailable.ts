// A database that cannot be reached is the client's 503, not the server's 500: every store
// method's connection failures (refused, reset, terminated, shutting down, or no pooled
// connection free within the wait) become one `service_unavailable` problem with
// Retry-After. Rule problems pass through; anything else stays unexpected (500).
import { ApiProblem } from "../../problems.js";
import type { Store as AsyncStore } from "../../domain/index.js";

/** Seconds a client waits before retrying (a restart or failover usually takes a few). */
export const retryAfterSeconds = 5;

const systemCodes = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
// SQLSTATE: too_many_connections, admin/crash shutdown, cannot_connect_now; class 08 is connection_exception.
const sqlStates = new Set(["53300", "57P01", "57P02", "57P03"]);
const messages = [/Connection terminated/i, /timeout exceeded when trying to connect/i, /not queryable/i, /Cannot use a pool after calling end/i];

/** True for an error that says the database is out of reach, not that a statement failed. */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (systemCodes.has(code) || sqlStates.has(code) || code.startsWith("08"))) return true;
  if (error instanceof AggregateError) return error.errors.some(isUnavailable);
  return messages.some((pattern) => pattern.test(error.message));
}

export const unavailableProblem = () =>
  new ApiProblem("service_unavailable", "The database cannot be reached just now; retry after the Retry-After delay.", undefined, {
    "Retry-After": String(retryAfterSeconds),
  });

/** SQLSTATE query_canceled: the statement ran past statement_timeout (or was cancelled by an operator). */
export const isStatementTimeout = (error: unknown) => error instanceof Error && (error as { code?: unknown }).code === "57014";

/**
 * A request whose statement outlived the database's statement timeout: a 503 that says so
 * (the code the document declares for a database that cannot answer now), so that one
 * tenant's costly query gives up its connection instead of queueing everyone behind it.
 */
export const statementTimeoutProblem = () =>
  new ApiProblem(
    "service_unavailable",
    "The database did not answer this request within its statement timeout; retry after the Retry-After delay, or narrow the filters.",
    undefined,
    { "Retry-After": String(retryAfterSeconds) },
  );

/** The problem a database error becomes, or the error itself when it is not the database's availability. */
export function databaseProblem(error: unknown): unknown {
  if (isStatementTimeout(error)) return statementTimeoutProblem();
  return isUnavailable(error) ? unavailableProblem() : error;
}

/** The store with each method's unreachable-database and timed-out errors turned into 503 problems. */
export function withUnavailable<S extends AsyncStore>(store: S): S {
  const guarded = { ...store };
  for (const name of Object.keys(store) as (keyof AsyncStore)[]) {
    const method = store[name] as (...args: unknown[]) => Promise<unknown>;
    if (typeof method !== "function") continue;
    (guarded as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      try {
        return await method(...args);
      } catch (error) {
        throw databaseProblem(error);
      }
    };
  }
  return guarded;
}
