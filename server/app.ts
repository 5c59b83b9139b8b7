// The reference server's Express app: the bundled document enforced by
// express-openapi-validator (requests always, responses unless turned off), routes found by
// operationId, security through the store, one error mapper. It never listens
// (server/listen.ts and server/main.ts do).
import express from "express";
import OpenApiValidator from "express-openapi-validator";
import type { Logger } from "pino";
import type { Handlers } from "./contract.js";
import { createHandlers } from "./handlers/index.js";
import type { Store } from "./store/index.js";
import { bodyLimitKb } from "./problems.js";
import { deprecation } from "./http/deprecation.js";
import { arrayBoundsCheck } from "./http/array-bounds.js";
import { authenticateFirst, continueWhenExpected } from "./http/authenticate-first.js";
import { duplicateCredentialCheck } from "./http/duplicate-credentials.js";
import { basePathOf, loadDocument } from "./http/document.js";
import { errorMapper, ResponseValidationFailed, unknownRoute } from "./http/error-mapper.js";
import { defaultFailedAuthLimit, failedAuthLimiter } from "./http/failed-auth-limit.js";
import { integerParameterCheck } from "./http/integer-query.js";
import { createLogger, requestLogger } from "./http/logging.js";
import { defaultRateLimit, rateLimiter, type RateLimitOptions } from "./http/rate-limit.js";
import { operationRoutes } from "./http/routes.js";
import { securityHandlers } from "./http/security.js";
import { securityHeaders } from "./http/security-headers.js";
import { parameterHints } from "./http/validation-errors.js";

export interface AppOptions {
  /** The data every handler reads and writes, and the credentials it authenticates. */
  store: Store;
  /** The current time for rules (`send_at`, timestamps); tests pin it. */
  clock?: () => Date;
  /** Where request logs go; default a silent logger (server/main.ts passes one at LOG_LEVEL). */
  logger?: Logger;
  /** Validate every response body against the document (default true; a failure is a 500). */
  validateResponses?: boolean;
  /** Requests per window per API key, or false for none (benchmarks). */
  rateLimit?: RateLimitOptions | false;
  /** Failed authentications (401) per window per client address, or false for none (suites that send many bad credentials). */
  failedAuthLimit?: RateLimitOptions | false;
  /** Replace some handlers (tests plug in a deliberately wrong or throwing one). */
  handlers?: Partial<Handlers>;
}

/** Builds the app; mount nothing else on it before `/v1` is served. */
export function createApp(options: AppOptions): express.Express {
  const document = loadDocument();
  const basePath = basePathOf(document);
  const clock = options.clock ?? (() => new Date());
  const logger = options.logger ?? createLogger("silent");
  const handlers: Handlers = { ...createHandlers({ store: options.store, clock }), ...options.handlers };
  const hints = parameterHints(document);

  const app = express();
  app.disable("x-powered-by");
  // No ETag: the document declares no ETag/If-None-Match, so a client cannot rely on one,
  // and hashing every body costs CPU on each response.
  app.set("etag", false);
  // Paths are case-sensitive (RFC 3986): /v1/WEBHOOKS is an unknown route, not /v1/webhooks.
  app.enable("case sensitive routing");
  // Request id and log line first, so every response, errors included, carries the id.
  app.use(requestLogger(logger));
  app.use(basePath, deprecation(document));
  app.use(securityHeaders());
  app.use(duplicateCredentialCheck());
  const failedAuthLimit = options.failedAuthLimit ?? defaultFailedAuthLimit;
  if (failedAuthLimit) app.use(basePath, failedAuthLimiter(failedAuthLimit));
  const rateLimit = options.rateLimit ?? defaultRateLimit;
  if (rateLimit) app.use(basePath, rateLimiter(rateLimit));
  app.use(basePath, integerParameterCheck(document));
  const security = securityHandlers(options.store);
  app.use(basePath, authenticateFirst(document, security));
  app.use(continueWhenExpected());
  // Parses only application/json; other media types stay unparsed and eov answers 415.
  // Strict: a top-level scalar (`null`, `1`) is refused here (eov's discriminator step would
  // crash on `null`); the error mapper answers it as validation_failed, not malformed_json.
  app.use(express.json({ limit: `${bodyLimitKb}kb`, strict: true }));
  app.use(basePath, arrayBoundsCheck(document));
  app.use(
    OpenApiValidator.middleware({
      apiSpec: document as never,
      validateApiSpec: false, // linted in CI; skipping it saves start-up time
      // coerceTypes false keeps JSON bodies strict ("true" is not a boolean); eov coerces
      // path, query and header strings on its own. allErrors: one errors[] item per value.
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, allErrors: true },
      validateResponses:
        options.validateResponses === false
          ? false
          : {
              // Thrown from eov's res.json hook: the off-contract body is never sent, the
              // mapper answers a generic 500 and logs "response validation failed".
              onError: (error) => {
                throw new ResponseValidationFailed(error);
              },
            },
      validateSecurity: { handlers: security },
      operationHandlers: operationRoutes(handlers),
    }),
  );
  app.use(unknownRoute);
  app.use(errorMapper(hints));
  return app;
}
