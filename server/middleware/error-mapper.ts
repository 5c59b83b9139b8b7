// The one error mapper: every failure of a request (validator errors, body-parser failures,
// rule violations thrown as ApiProblem, the rate limiter's 429, unknown routes, unexpected
// exceptions) becomes exactly one RFC 9457 problem. Nothing else writes an error body.
// Bodies carry no stack, no file path, no submitted value beyond its location; unexpected
// errors are logged with the request id and answered with a generic detail.
import type { ErrorRequestHandler, Request, RequestHandler, Response } from "express";
import {
  ApiProblem,
  invalidResponse,
  malformedJson,
  payloadTooLarge,
  problemAt,
  unsupportedBodyEncoding,
  type Problem,
  type ProblemErrorItem,
  type ResponseFailure,
} from "../problems.js";
import { requestLog } from "./logging.js";
import { requestPath } from "./request-path.js";
import { describeErrors, toErrorItems, type ValidatorErrorItem } from "./validation-errors.js";

/** A response body the handler produced that the document does not allow (response validation). */
export class ResponseValidationFailed extends Error {
  /** `errors` for the log (eov's items, which may name the answer's own keys); `failures` for the answer (from the document alone). */
  constructor(readonly failure: { message: string; errors?: ValidatorErrorItem[]; failures: ResponseFailure[] }) {
    super(`response validation failed: ${failure.message}`);
    this.name = "ResponseValidationFailed";
  }
}

/** express-openapi-validator's HttpError (status, message, errors[]). */
interface ValidatorHttpError {
  status: number;
  message: string;
  path?: string;
  errors: ValidatorErrorItem[];
}

/** body-parser's errors carry a `type` such as `entity.too.large` or `charset.unsupported`. */
interface BodyParserError {
  type: string;
  status: number;
  /** The limit in bytes that refused the body (`entity.too.large`). */
  limit?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** Whether an error is body-parser's (the layer's text reader or a host app's parser in front of it). */
export function isBodyParserError(error: unknown): error is BodyParserError {
  return isObject(error) && typeof error.type === "string" && /^(entity|request|charset|encoding|stream)\./.test(error.type);
}

/**
 * A client error raised while reading the body that body-parser passes on untyped: zlib's
 * error for a corrupt gzip/deflate/br body carries only `status: 400` and `expose: true`.
 */
function isExposedClientError(error: unknown): error is { status: number } {
  return isObject(error) && error.expose === true && typeof error.status === "number" && error.status >= 400 && error.status < 500;
}

function isValidatorError(error: unknown): error is ValidatorHttpError {
  return error instanceof Error && typeof (error as { status?: unknown }).status === "number" && Array.isArray((error as { errors?: unknown }).errors);
}

interface OpenApiRequest {
  openapi?: { schema?: { operationId?: string } };
}
const operationIdOf = (req: Request) => (req as Request & OpenApiRequest).openapi?.schema?.operationId;

/** 404 for a route no operation serves; the path is the `instance`, not repeated in the detail. */
const noOperation = (req: Request) => new ApiProblem("not_found", `No operation serves ${req.method} at this path.`);

const unexpected = () => new ApiProblem("internal_error", "An unexpected error occurred. The X-Request-Id of this response identifies it in the server log.");

const badEncoding: ProblemErrorItem[] = [{ in: "path", message: "is not valid percent-encoding" }];

function fromBodyParser(error: BodyParserError): ApiProblem {
  switch (error.type) {
    case "entity.too.large":
      // The parser's own limit: a host's `express.json({ limit })` in front is not the layer's.
      return typeof error.limit === "number" && Number.isSafeInteger(error.limit) && error.limit > 0 ? payloadTooLarge(error.limit) : payloadTooLarge();
    // A host app's `express.json()` in front of the layer: the same problem as the layer's own parser.
    case "entity.parse.failed":
      return malformedJson();
    case "charset.unsupported":
    case "encoding.unsupported":
      return unsupportedBodyEncoding();
    default:
      return error.status >= 400 && error.status < 500 ? new ApiProblem("validation_failed", "The request body could not be read.") : unexpected();
  }
}

function fromReadFailure(status: number): ApiProblem {
  if (status === 413) return payloadTooLarge();
  if (status === 415) return new ApiProblem("unsupported_media_type", "The request body must be sent as application/json.");
  return new ApiProblem("malformed_json", "The request body could not be read (is its Content-Encoding right?).", [
    { in: "body", pointer: "", message: "could not be decoded" },
  ]);
}

function fromValidator(error: ValidatorHttpError, req: Request, hints: Map<string, Map<string, string>>): ApiProblem {
  switch (error.status) {
    case 400: {
      const operationId = operationIdOf(req);
      const items = toErrorItems(error.errors, requestPath(req), operationId ? hints.get(operationId) : undefined);
      return new ApiProblem("validation_failed", describeErrors(items), items);
    }
    case 404:
      return noOperation(req);
    case 413:
      return payloadTooLarge();
    case 415:
      return new ApiProblem("unsupported_media_type", "The request body must be sent as application/json.");
    default:
      return unexpected();
  }
}

/** The problem an error stands for, and whether it is unexpected (to be logged as an error). */
export function problemFor(error: unknown, req: Request, hints: Map<string, Map<string, string>>): { problem: ApiProblem; unexpected: boolean } {
  if (error instanceof ApiProblem) return { problem: error, unexpected: error.code === "internal_error" };
  if (error instanceof ResponseValidationFailed) return { problem: invalidResponse(error.failure.failures), unexpected: true };
  // Express's router could not decode a path parameter (`%E0%A4%A`), before the validator saw it.
  if (error instanceof URIError) return { problem: new ApiProblem("validation_failed", describeErrors(badEncoding), badEncoding), unexpected: false };
  if (isBodyParserError(error)) {
    const problem = fromBodyParser(error);
    return { problem, unexpected: problem.code === "internal_error" };
  }
  if (isExposedClientError(error) && !isValidatorError(error)) {
    const problem = fromReadFailure(error.status);
    return { problem, unexpected: false };
  }
  if (isValidatorError(error)) {
    const problem = fromValidator(error, req, hints);
    return { problem, unexpected: problem.code === "internal_error" };
  }
  return { problem: unexpected(), unexpected: true };
}

/** The problem body of an ApiProblem for this request. */
export function problemBody(problem: ApiProblem, req: Parameters<typeof requestPath>[0]): Problem {
  return problemAt(problem, requestPath(req));
}

const resultHeaders = new WeakMap<Response, string[]>();

/**
 * Names the headers a handler's result set on `res`: if its body then fails response
 * validation, the problem answered instead is sent without them (no `Location` on a 500).
 */
export function rememberResultHeaders(res: Response, names: string[]): void {
  resultHeaders.set(res, names);
}

/** The error-handling middleware, last in the app. */
export function errorMapper(hints: Map<string, Map<string, string>>): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) {
      // Too late for a problem: the log says why the response stopped, the socket closes.
      requestLog(req).error({ err: error }, "error after the response started");
      return next(error);
    }
    const { problem, unexpected } = problemFor(error, req, hints);
    if (error instanceof ResponseValidationFailed) {
      requestLog(req).error({ responseErrors: error.failure.errors, operationId: operationIdOf(req) }, error.message);
    } else if (unexpected) {
      requestLog(req).error({ err: error }, "unexpected error");
    }
    const body = problemBody(problem, req);
    for (const name of resultHeaders.get(res) ?? []) res.removeHeader(name);
    res.status(problem.status).set(problem.headers ?? {});
    // Sent as text, not through res.json: a problem body is the mapper's, not a handler's.
    res.type("application/problem+json").send(JSON.stringify(body));
  };
}

/** The last route: anything no operation matched. */
export const unknownRoute: RequestHandler = (req, _res, next) => {
  next(noOperation(req));
};
