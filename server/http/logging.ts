// Structured request logs: one pino-http line per request, bound to the request id, with
// every credential redacted. Bodies are never logged; the body paths are redacted anyway,
// as a guard against a future serializer that would add them.
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from "pino";
import { pinoHttp, type HttpLogger } from "pino-http";
import { assignRequestId } from "./request-id.js";

/** Everything that can carry an API key, an API secret or an e-mail transport's `auth`. */
export const redactedPaths = [
  "req.headers.authorization",
  'req.headers["x-api-key"]',
  'req.headers["x-api-secret"]',
  // Guards: request bodies (the e-mail `auth` among them) are not logged at all, and
  // body-parser errors carry the raw body in `body`.
  "req.body",
  "err.body",
  "body",
  "auth",
];

/** A pino logger writing JSON lines (stdout unless a destination is given). */
export function createLogger(options: { level?: LevelWithSilent; destination?: DestinationStream } = {}): Logger {
  const level = options.level ?? ((process.env.LOG_LEVEL as LevelWithSilent | undefined) || "info");
  return pino({ level, redact: { paths: redactedPaths, censor: "[Redacted]" } }, options.destination);
}

/** The request-logging middleware; sets `req.id`, `req.log` and the X-Request-Id header. */
export function httpLogger(logger: Logger): HttpLogger {
  return pinoHttp({
    logger,
    genReqId: assignRequestId,
    // Applied to the child pino-http makes, so a logger passed in without redaction gets it too.
    redact: { paths: redactedPaths, censor: "[Redacted]" },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info"),
  });
}
