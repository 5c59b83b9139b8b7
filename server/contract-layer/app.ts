// The contract-enforcing Express app over a bundled OpenAPI document: the request id and log
// line first, then CORS (preflights end there), the per-address queue and per-key cap of
// requests in flight, the rate limit, routing by the document's paths to each operation's
// handler by operationId, the operation's own credential scheme before the body is read,
// request validation, the handler, response validation, the failed-authentication count,
// and one RFC 9457 problem mapper for every failure. It never listens (server/contract-layer/listen.ts
// does). Mounted inside a host app (`app.use("/api", contractApp)`), it serves the
// document's paths below the mount path and passes every other request on to the host.
import type { IncomingHttpHeaders } from "node:http";
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from "express";
import type { Logger } from "pino";
import type { operations as ApiOperations } from "../../generated/schema.js";
import { bodyLimitKb } from "../problems.js";
import { arrayBoundsFor } from "../middleware/array-bounds.js";
import { basePathOf, loadDocument, operationsOf, resolveRef, type ApiDocument } from "../document/load.js";
import { duplicateCredentialCheck } from "../middleware/duplicate-credentials.js";
import { continueWhenExpected } from "../middleware/expect-continue.js";
import { addressQueue, concurrencyLimiter, defaultAddressInFlight, defaultConcurrencyLimit } from "../middleware/concurrency-limit.js";
import { defaultFailedAuthLimit, failedAuthLimiter } from "../middleware/failed-auth-limit.js";
import { integerCheckFor } from "../middleware/integer-query.js";
import { bodyRequired, jsonBody, warmBodyReader } from "../middleware/json-body.js";
import { securityHeaders } from "../middleware/security-headers.js";
import { closeWhenBodyUnread } from "../middleware/unread-body.js";
import { trustProxyProblem } from "../middleware/trust-proxy.js";
import { warnWhenServedWithoutListen } from "../middleware/served-without-listen.js";
import { deprecation } from "../middleware/deprecation.js";
import { errorMapper, isBodyParserError, unknownRoute } from "../middleware/error-mapper.js";
import { corsExposedHeaders, corsMiddleware, type CorsOptions } from "../middleware/cors.js";
import { createLogger, requestIdOf, requestLog, requestLogger } from "../middleware/logging.js";
import { defaultRateLimit, rateLimiter, unlimitedRateLimitHeaders, type RateLimitOptions } from "../middleware/rate-limit.js";
import { callerOf, credentialCheck, type Authenticator } from "../middleware/security.js";
import type { TrustProxy } from "../middleware/trust-proxy.js";
import { parameterHints } from "../middleware/validation-errors.js";
import { ApiProblem } from "../problems.js";
import type { Handlers, OperationInput } from "./contract.js";
import { checkHandlerMap, missingHandlersMessage } from "./handler-map.js";
import { describeOperation, servedOperations, type ServedOperation } from "./operations.js";
import { sendOutput } from "./result.js";
import { chain, operationRouter, type OperationRoute } from "./router.js";
import { registerReady } from "./readiness.js";
import { documentValidator } from "./validator.js";

/** Which handlers the app is given, and what it does for an operation without one. */
export type HandlerOptions<Ops, Context> =
  | {
      /** One handler per operationId of the document; a missing or extra one stops the build. */
      // NoInfer: the operations come from the type argument (default this API's), never guessed from the map.
      handlers: NoInfer<Handlers<Ops, Context>>;
      /** `"error"` (default): an operation without a handler stops the build. */
      missingHandlers?: "error";
    }
  | {
      /** The handlers written so far; an extra one (not in the document) still stops the build. */
      handlers: NoInfer<Partial<Handlers<Ops, Context>>>;
      /**
       * `"not_implemented"`: an operation without a handler answers the documented 501
       * `not_implemented` problem (after its credentials and validation), and the build
       * lists those operations once (a warning on `logger`, else a process warning).
       */
      missingHandlers: "not_implemented";
    };

export type ContractAppOptions<Ops = ApiOperations, Context = undefined> = HandlerOptions<Ops, Context> & {
  /** Looks up the application behind a bearer token or an API key pair. */
  authenticate: Authenticator;
  /** Where request logs go (pino); default a silent logger. Credentials are redacted either way. */
  logger?: Logger;
  /** Validate every JSON response body against the document (default true; a failure is a 500). */
  validateResponses?: boolean;
  /** Requests per window per API key (default 600 per minute), or false for none. */
  rateLimit?: RateLimitOptions | false;
  /** Failed authentications (401) per window per client address (default 60 per minute), or false for none; past it failures are 429s, valid credentials still pass. */
  failedAuthLimit?: RateLimitOptions | false;
  /** Requests one API key may have in flight at once in this process (default 16; none when `rateLimit` is false), or false for no cap; past it a request waits up to 1 s for a slot, then 429. */
  concurrencyLimit?: number | false;
  /** Requests one client address may have in flight at once in this process before others from it wait their turn (default 64), or false. */
  addressInFlight?: number | false;
  /**
   * Which proxies to believe about the client address (X-Forwarded-For), for the limits kept
   * per address: a hop count, or the proxies' addresses/CIDRs; default false (the socket's
   * address). Never `true`, a hop count above 10, or addresses covering more than 1/64 of
   * IPv4 or IPv6 (server/middleware/trust-proxy.ts): any client could then pick its address.
   */
  trustProxy?: TrustProxy;
  /** Which browser origins may call (CORS), or false (default) for no CORS headers. */
  cors?: CorsOptions | false;
  /** The bundled document to serve; default this package's. */
  document?: ApiDocument;
  /**
   * The path the operations are served under, below where the app is mounted; default the
   * path of the document's first server URL (`/v1`). Mounted with `app.use("/api", …)`,
   * the operations are at `/api` + basePath + their path.
   */
  basePath?: string;
  /**
   * A request whose path the document does not know: `"next"` (default) passes it on to
   * the host app's next route untouched; `"problem"` answers it with the 404 problem, as a
   * service that is only this API does (the reference server). A path the document knows
   * with a method it does not serve is a 405 problem either way.
   */
  unmatched?: "next" | "problem";
  /**
   * What every handler receives as `context`, built per request after the credentials and
   * validation passed: e.g. `(req, res) => res.locals.tenant` for what the host's own
   * middleware put there. Absent: `context` is undefined.
   */
  context?: (req: Request, res: Response) => Context | Promise<Context>;
};

type AnyHandler = (input: OperationInput<unknown, unknown>) => unknown;

/** Request headers a handler never sees: the credentials (the layer checked them; `caller` says whose they are). */
const hiddenHeaders = new Set(["authorization", "x-api-key", "x-api-secret", "cookie", "proxy-authorization"]);

/** A frozen copy of the request headers without the credentials. */
function visibleHeaders(headers: IncomingHttpHeaders): Readonly<IncomingHttpHeaders> {
  const copy: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!hiddenHeaders.has(name)) copy[name] = Array.isArray(value) ? (Object.freeze([...value]) as string[]) : value;
  return Object.freeze(copy);
}

/** The step of an operation without a handler, under `missingHandlers: "not_implemented"`. */
const notImplemented =
  (operation: ServedOperation): AnyHandler =>
  () => {
    throw new ApiProblem("not_implemented", `${describeOperation(operation)} is documented but not implemented by this service yet.`);
  };

/** The invocation step: validated input in, the handler's output written. */
function invoke(
  operation: ServedOperation,
  handler: AnyHandler,
  context: ((req: Request, res: Response) => unknown) | undefined,
  checkResponse: (operationId: string, status: number, body: unknown) => void,
): RequestHandler {
  return async (req, res) => {
    const openapi = (req as { openapi?: { pathParams?: Record<string, unknown> } }).openapi;
    let headers: Readonly<IncomingHttpHeaders> | undefined;
    const output = await handler({
      // The validator's decoded (and coerced) path parameters: Express resets req.params per step.
      path: (openapi?.pathParams ?? {}) as never,
      query: req.query as never,
      body: req.body as never,
      caller: operation.security.length > 0 ? callerOf(req) : (undefined as never),
      requestId: requestIdOf(req),
      // A getter, as the request's own is: the redacted child logger is built only if the handler logs.
      get log() {
        return requestLog(req);
      },
      // Copied only if the handler reads them.
      get headers() {
        return (headers ??= visibleHeaders(req.headers));
      },
      context: context ? await context(req, res) : undefined,
    });
    sendOutput(res, operation, output, checkResponse);
  };
}

/** Builds the app. Throws if the handler map and the document disagree. */
export function createContractApp<Ops = ApiOperations, Context = undefined>(options: ContractAppOptions<Ops, Context>): express.Express {
  const document = options.document ?? loadDocument();
  const basePath = options.basePath === undefined ? basePathOf(document) : normalizeBasePath(options.basePath);
  const operations = servedOperations(document);
  const allowMissing = options.missingHandlers === "not_implemented";
  const missing = checkHandlerMap(operations, options.handlers as object, { allowMissing });
  if (missing.length > 0) {
    const message = missingHandlersMessage(missing);
    if (options.logger) options.logger.warn({ notImplemented: missing.map((operation) => operation.operationId) }, message);
    else process.emitWarning(message, "ContractWarning");
  }
  const handlers = options.handlers as unknown as Record<string, AnyHandler>;
  const handlerOf = (operation: ServedOperation) => handlers[operation.operationId] ?? notImplemented(operation);
  const context = options.context as ((req: Request, res: Response) => unknown) | undefined;
  const validateResponses = options.validateResponses ?? true;
  const unmatched = options.unmatched ?? "next";

  // Parses only application/json; other media types stay unparsed and the validator answers
  // 415. Strict: a top-level scalar (`null`, `1`) is refused (the validator's discriminator
  // step would crash on `null`). One queue for the app: bodies are parsed one per loop turn.
  const json = jsonBody(bodyLimitKb);
  const validator = documentValidator(document, basePath, validateResponses);
  const documented = new Map(operationsOf(document).map((entry) => [entry.operationId, entry.operation]));
  const routes: OperationRoute[] = operations.map((operation) => {
    const check = operation.security.length > 0 ? [credentialCheck(operation.security, options.authenticate, operation.operationId)] : [];
    const own = documented.get(operation.operationId)!;
    // Integers by their strict grammar and arrays by their maxItems before the validator,
    // whose coercion and allErrors walk would accept `0x10` or spend its time on 33,000 items.
    const integers = integerCheckFor(document, basePath, operation.path, own);
    const arrays = arrayBoundsFor(document, own);
    return {
      method: operation.method,
      path: operation.path,
      handle: chain([
        ...check,
        ...(integers ? [integers] : []),
        continueWhenExpected(),
        // An operation without a request body leaves any body sent unread (HTTP gives it no meaning).
        ...(own.requestBody ? json : []),
        ...(own.requestBody && resolveRef<{ required?: boolean }>(document, own.requestBody as never).required ? [bodyRequired] : []),
        ...(arrays ? [arrays] : []),
        validator.operation(operation.method, operation.path, own.requestBody !== undefined),
        invoke(operation, handlerOf(operation), context, validator.checkResponse),
      ]),
    };
  });

  const app = express();
  app.disable("x-powered-by");
  // No ETag: the document declares no ETag/If-None-Match, so a client cannot rely on one,
  // and hashing every body costs CPU on each response.
  app.set("etag", false);
  // Paths are case-sensitive (RFC 3986): /v1/WEBHOOKS is an unknown route, not /v1/webhooks.
  app.enable("case sensitive routing");
  const trustProblem = trustProxyProblem(options.trustProxy);
  if (trustProblem) throw new Error(`trustProxy: ${trustProblem}`);
  const trustProxy = options.trustProxy === undefined || options.trustProxy === false ? false : options.trustProxy;
  app.set("trust proxy", trustProxy);
  const deprecated = deprecation(document, basePath);
  const router = operationRouter(basePath, routes);
  // Request id and log line first, so every response, errors included, carries the id.
  const common = [
    // An answer before a large body was read closes the connection: Node would read the rest for nothing.
    closeWhenBodyUnread(bodyLimitKb * 1024),
    // Once, on the first request: a server without listen()'s timeouts and `checkContinue` is said in one line.
    warnWhenServedWithoutListen((message) => (options.logger ? options.logger.warn(message) : process.emitWarning(message, "ContractWarning"))),
    requestLogger(options.logger ?? createLogger("silent")),
    // Preflights are answered here, before the rate limit, credentials and validation.
    // The methods are the document's: an added operation's method is allowed with it.
    ...(options.cors ? [corsMiddleware(options.cors, [...new Set(operations.map((operation) => operation.method.toUpperCase()))], corsExposedHeaders(document))] : []),
    ...(deprecated ? [deprecated] : []),
    securityHeaders(),
  ];
  // A path the document does not know leaves the app at once (`next("router")`): no request
  // id, header, log line or limit of the API touches the host's own routes.
  const passOn: RequestHandler = (req, _res, next) => next(router.serves(req) ? undefined : "router");
  // One layer for the steps every request takes (each Express layer costs a match per request).
  app.use(chain([...(unmatched === "next" ? [passOn] : []), ...common]));
  // Per address, then per key, then the per-key window (the first database work): a request
  // refused or held back by a cap costs the database nothing. One layer, as for `common`.
  const addressInFlight = options.addressInFlight ?? defaultAddressInFlight;
  const rateLimit = options.rateLimit ?? defaultRateLimit;
  const concurrencyLimit = options.concurrencyLimit ?? (rateLimit ? defaultConcurrencyLimit : false);
  app.use(
    basePath || "/",
    chain([
      ...(addressInFlight !== false ? [addressQueue(addressInFlight, trustProxy !== false)] : []),
      ...(concurrencyLimit !== false ? [concurrencyLimiter(concurrencyLimit)] : []),
      // Without a limit the RateLimit fields still say so (the document requires them on every answer).
      rateLimit ? rateLimiter(rateLimit) : unlimitedRateLimitHeaders(),
      // After the rate limiter, so this 400 carries the RateLimit headers every answer under the
      // base path does (the document marks them required).
      duplicateCredentialCheck(),
    ]),
  );
  app.use(router.handle);
  // Sees the credential checks' 401s: counts each, and past the limit answers 429 instead.
  const failedAuthLimit = options.failedAuthLimit ?? defaultFailedAuthLimit;
  if (failedAuthLimit) app.use(failedAuthLimiter(failedAuthLimit));
  app.use(unknownRoute);
  const mapper = errorMapper(parameterHints(document));
  app.use(mapper);
  // Every operation's validators compiled before the app is reported ready: `listen()` waits
  // for `ready(app)`, also for a host app this one is mounted in (server/contract-layer/readiness.ts).
  registerReady(app, validator.warm);
  // And a body read once: the first one loads the reader's encoding tables.
  registerReady(app, async () => void (await warmBodyReader()));
  app.on("mount", (parent: express.Application) => {
    parent.use(app.mountpath, hostBodyErrors(unmatched === "next" ? router.serves : () => true, chain(common), mapper));
  });
  return app;
}

/** `api/v1/` → `/api/v1`; `/` or `""` → `""` (the operations at the mount path itself). */
function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, "");
  return trimmed === "" || trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
}

/**
 * Added to the host app right after the contract app when it is mounted (`app.use(path,
 * contractApp)`): a body the host's own parser in front of the layer could not read
 * (malformed JSON, too large, a bad charset) on a path the layer serves skips the contract
 * app, as Express sends errors only to error handlers; this answers it with the layer's
 * problem instead of Express's HTML error page. Every other error goes on to the host's.
 */
function hostBodyErrors(serves: (req: Request) => boolean, common: RequestHandler, mapper: ErrorRequestHandler): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (!isBodyParserError(error) || res.headersSent || !serves(req)) return next(error);
    common(req, res, (stepError?: unknown) => mapper(stepError ?? error, req, res, next));
  };
}
