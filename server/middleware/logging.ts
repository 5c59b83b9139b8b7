// Structured request logs: one line per request, bound to the request id, with an
// allow-list of request headers cut to a bounded length and every credential redacted. Bodies are never logged; the body paths are redacted anyway,
// as a guard against a future serializer that would add them.
import { pino, type Logger, type LevelWithSilent } from "pino";
import type { RequestHandler } from "express";
import { assignRequestId } from "./request-id.js";
import { requestPath } from "./request-path.js";

const censor = "[Redacted]";

/** Keys whose values are redacted wherever they appear, down to this depth (pino paths match one level per `*`). */
const anywhereDepth = 4;
const anywhere = (key: string) => Array.from({ length: anywhereDepth }, (_, depth) => [...Array<string>(depth).fill("*"), key].join("."));

/** Everything that can carry an API key, an API secret or an e-mail transport's `auth`. */
export const redactedPaths = [
  "req.headers.authorization",
  'req.headers["x-api-key"]',
  'req.headers["x-api-secret"]',
  // Guards: request bodies (the e-mail `auth` among them) are not logged at all, and
  // body-parser errors carry the raw body in `body`, also when nested (`err.cause.body`).
  ...anywhere("body"),
  ...anywhere("auth"),
];

/**
 * The request headers a log line carries; any other (Cookie, Proxy-Authorization, a junk
 * header) is left out. The credential headers show that they were sent, as [Redacted].
 */
export const loggedHeaders = [
  "host",
  "user-agent",
  "accept",
  "content-type",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "expect",
  "origin",
  "referer",
  "x-forwarded-for",
  "x-request-id",
  "authorization",
  "x-api-key",
  "x-api-secret",
] as const;

/** The longest header value logged; longer values are cut and marked, so a line stays small. */
export const maxLoggedHeaderLength = 256;

/** The allow-listed headers of a request, each value cut to maxLoggedHeaderLength. */
export function headersToLog(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const logged: Record<string, string> = {};
  for (const name of loggedHeaders) {
    const raw = headers[name];
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(", ") : raw;
    logged[name] = value.length > maxLoggedHeaderLength ? `${value.slice(0, maxLoggedHeaderLength)}…[${value.length} characters]` : value;
  }
  return logged;
}

/**
 * A database driver's error (node-postgres' DatabaseError: a SQLSTATE `code` and a
 * `severity`). Its message, `detail`, `where` and `hint` quote the values of the statement
 * ("JSON data, line 1: …" holds ~40 characters of a stored body, e-mail addresses among
 * them; "value "…" is out of range"), so none of them is logged.
 */
function isDriverError(error: unknown): error is Error & Record<string, unknown> {
  // First: `{ err: null }` is logged as pino logs it, not a TypeError from the destructuring.
  if (!(error instanceof Error)) return false;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && typeof severity === "string";
}

/** The fields of a driver error that name, not quote: the SQLSTATE, the server routine, the schema objects. */
const driverFields = ["code", "severity", "routine", "schema", "table", "column", "dataType", "constraint"] as const;

/**
 * The `err` serializer: pino's, but a driver error (also as a `cause`) keeps only the fields
 * that name what failed and its stack frames, never the text its first line repeats.
 */
export function loggableError(error: unknown): unknown {
  if (!isDriverError(error)) {
    const serialized = pino.stdSerializers.err(error as Error) as unknown;
    const cause = (error as { cause?: unknown } | null)?.cause;
    // With a cause, `error` is an object (pino's copy of it is too) or a function (kept as is).
    if (cause === undefined || typeof serialized !== "object") return serialized;
    // pino appends each cause's message and stack to the error's own: kept apart here, so a
    // driver error as the cause is cut like one logged directly.
    const { message, stack } = error as Error;
    return { ...serialized, message, stack, cause: loggableError(cause) };
  }
  const named = Object.fromEntries(driverFields.filter((field) => error[field] !== undefined).map((field) => [field, error[field]]));
  const frames = (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  return {
    type: error.constructor.name,
    message: `database error ${String(error.code)} (text not logged: it can quote the statement's values)`,
    ...named,
    stack: frames.join("\n"),
  };
}

const serializers = { err: loggableError };

/** A pino logger writing JSON lines to stdout at `level`, with every credential redacted and no driver error's text. */
export function createLogger(level: LevelWithSilent): Logger {
  return pino({ level, redact: { paths: redactedPaths, censor }, serializers });
}

/**
 * What the request logger puts on a request. Not declared on Node's or Express's request
 * types: a service with pino-http declares `id` and `log` there with its own types, and
 * two declarations of one property fail its compile (TS2717).
 */
interface LoggedRequest {
  /** The request id (X-Request-Id). */
  id: string;
  /** A logger bound to this request: every line carries `req` (id, method, path as `url`, headers). */
  log: Logger;
}

/** The request id the request logger gave `req`. */
export const requestIdOf = (req: object): string => (req as LoggedRequest).id;
/** The logger the request logger bound to `req`. */
export const requestLog = (req: object): Logger => (req as LoggedRequest).log;

/**
 * The request-logging middleware: sets the X-Request-Id header, `req.id` and `req.log`, and
 * writes one "request completed" line per request at info (2xx/3xx), warn (4xx, 501) or error (other 5xx).
 * Written on pino directly rather than pino-http: pino-http builds a redacted child logger
 * for every request even when no line is written, which was the largest share of the
 * server's per-request CPU over Express + validator (bench/profile.ts). Here the child is
 * built only when a line is.
 */
export function requestLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const id = assignRequestId(req, res);
    const started = performance.now();
    let child: Logger | undefined;
    const log = () =>
      (child ??= logger.child(
        // The path without the query string: a key pasted into the query is never logged.
        { req: { id, method: req.method, url: requestPath(req), headers: headersToLog(req.headers), remoteAddress: req.socket.remoteAddress } },
        // On the child, so a logger passed in without redaction (or the driver-error serializer) gets it too.
        { redact: { paths: redactedPaths, censor }, serializers },
      ));
    (req as unknown as LoggedRequest).id = id;
    Object.defineProperty(req, "log", { get: log, configurable: true, enumerable: false });
    // A silent logger (the layer's default) writes no line: no listener per request.
    if (logger.isLevelEnabled("error")) {
      res.on("finish", () => {
        // 501 is an operation the service does not implement yet (a stub, `missingHandlers`):
        // expected while it moves to the contract, so not an error line per call.
        const level = res.statusCode >= 500 && res.statusCode !== 501 ? "error" : res.statusCode >= 400 ? "warn" : "info";
        if (!logger.isLevelEnabled(level)) return;
        log()[level]({ res: { statusCode: res.statusCode }, responseTime: Math.round(performance.now() - started) }, "request completed");
      });
    }
    next();
  };
}
