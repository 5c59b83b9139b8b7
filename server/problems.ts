// The problem kinds of the API (docs/decisions.md, Errors), the one error class that
// handlers, rules and the store throw, and its body. The error mapper turns any of them, and
// anything else, into an RFC 9457 response (the MSW handlers, which have no server, write the
// same body with problemAt); nothing else writes an error body. No Node API: the handlers run
// in browsers.
import type { components } from "../generated/schema.js";

/** An error body: the closed `Problem`, or the 501 of an operation not implemented yet (a schema of its own). */
export type Problem = components["schemas"]["Problem"] | components["schemas"]["NotImplementedProblem"];
export type ProblemCode = Problem["code"];
export type ProblemErrorItem = components["schemas"]["ProblemError"];

/** Status and title of each problem code. */
export const problemKinds = {
  validation_failed: { status: 400, title: "Validation failed" },
  malformed_json: { status: 400, title: "Malformed JSON" },
  unauthorized: { status: 401, title: "Unauthorized" },
  not_found: { status: 404, title: "Not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  conflict: { status: 409, title: "Conflict" },
  request_timeout: { status: 408, title: "Request timeout" },
  payload_too_large: { status: 413, title: "Payload too large" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  rate_limited: { status: 429, title: "Too many requests" },
  headers_too_large: { status: 431, title: "Request header fields too large" },
  internal_error: { status: 500, title: "Internal server error" },
  not_implemented: { status: 501, title: "Not implemented" },
  service_unavailable: { status: 503, title: "Service unavailable" },
} as const satisfies Record<ProblemCode, { status: number; title: string }>;

/** Base of the `type` URI of every problem; the code (or the subtype) completes it. */
export const problemTypeBase = "https://api.authsvc.example/problems/";

/**
 * Problem types narrower than their code (RFC 9457 `type`): the same code and status, so a
 * client that knows the codes handles them as before, and their own `type` and `title`.
 */
export const problemSubtypes = {
  /** The service's own answer broke the contract (response validation): `detail` says where and which rule, never a value. */
  invalid_response: { code: "internal_error", title: "Invalid response" },
} as const satisfies Record<string, { code: ProblemCode; title: string }>;
export type ProblemSubtype = keyof typeof problemSubtypes;

/** An error that becomes exactly one problem response. */
export class ApiProblem extends Error {
  readonly status: number;
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors?: ProblemErrorItem[],
    /** Extra response headers, e.g. `Allow` or `Retry-After`. */
    readonly headers?: Record<string, string>,
    /** A type narrower than the code's (problemSubtypes). */
    readonly subtype?: ProblemSubtype,
  ) {
    super(detail);
    this.name = "ApiProblem";
    this.status = problemKinds[code].status;
  }
}

/** A string cut to `max` characters, marked with "…" when cut. */
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The longest strings of a problem, as the Problem schema bounds them: a name, pointer or
 * path taken from the request is cut, so no request makes a large answer.
 */
export const problemLimits = { detail: 8192, instance: 2048, name: 256, pointer: 1024, message: 1024 } as const;

function boundedItem(item: ProblemErrorItem): ProblemErrorItem {
  return {
    ...item,
    ...(item.name !== undefined && { name: cut(item.name, problemLimits.name) }),
    ...(item.pointer !== undefined && { pointer: cut(item.pointer, problemLimits.pointer) }),
    message: cut(item.message, problemLimits.message),
  };
}

/** The problem body of an ApiProblem for a request to `instance` (its path without the query, RFC 9457). */
export function problemAt(problem: ApiProblem, instance: string): Problem {
  const code: ProblemCode = problem.code;
  return {
    type: `${problemTypeBase}${problem.subtype ?? code}`,
    title: problem.subtype ? problemSubtypes[problem.subtype].title : problemKinds[code].title,
    status: problem.status,
    detail: cut(problem.detail, problemLimits.detail),
    instance: cut(instance, problemLimits.instance),
    code,
    ...(problem.errors ? { errors: problem.errors.slice(0, maxProblemErrors).map(boundedItem) } : {}),
    ...(problem.errors && problem.errors.length > maxProblemErrors ? { errors_omitted: problem.errors.length - maxProblemErrors } : {}),
    // One of the two error schemas, by its code: the 501's (NotImplementedProblem) or Problem.
  } as Problem;
}

/** 400 for a broken rule, naming each offending value. */
export const invalid = (detail: string, errors: ProblemErrorItem[]) => new ApiProblem("validation_failed", detail, errors);
/** 404 for an unknown id or another application's id. */
export const notFound = (detail: string) => new ApiProblem("not_found", detail);
/** 409 for a change the current state forbids. */
export const conflict = (detail: string) => new ApiProblem("conflict", detail);

/**
 * The most `errors[]` items a problem carries; `errors_omitted` counts the rest. A bound on
 * the answer to any body, however many values in it are wrong.
 */
export const maxProblemErrors = 10;

/** The largest JSON request body accepted, in kB as body-parser counts them (1 kB = 1024 bytes). */
export const bodyLimitKb = 100;
/** 413 for a body over the limit in bytes that refused it (a host app's parser in front has its own), default bodyLimitKb. */
export const payloadTooLarge = (limitBytes = bodyLimitKb * 1024) =>
  new ApiProblem("payload_too_large", `The request body is larger than ${limitBytes % 1024 === 0 ? `${limitBytes / 1024} kB` : `${limitBytes} bytes`}.`);
/** 400 for a body that is not JSON, from the layer's parser or a host app's `express.json()` in front of it. The text is never echoed: it may hold a secret. */
export const malformedJson = () => new ApiProblem("malformed_json", "The request body is not valid JSON.", [{ in: "body", pointer: "", message: "not valid JSON" }]);
/** 415 for a JSON body in a charset other than UTF, or in a Content-Encoding the server does not inflate. */
export const unsupportedBodyEncoding = () =>
  new ApiProblem("unsupported_media_type", "The request body must be application/json in UTF-8, without an unsupported Content-Encoding.");

/** Where and how a handler's answer breaks the document: a JSON pointer into the answer and the rule's message, both from the document alone. */
export interface ResponseFailure {
  pointer: string;
  message: string;
}

/** The most failures an invalid_response detail names; the log has them all. */
const maxResponseFailures = 5;

/** 500 for a handler's answer the document does not allow (response validation): a fault of the service, named for whoever runs its tests. */
export function invalidResponse(failures: ResponseFailure[]): ApiProblem {
  const named = failures.slice(0, maxResponseFailures).map(({ pointer, message }) => `at ${pointer === "" ? "the root" : pointer}: ${message}`);
  const more = failures.length > maxResponseFailures ? ` (and ${failures.length - maxResponseFailures} more)` : "";
  return new ApiProblem(
    "internal_error",
    `The service's answer does not match its contract (response validation, a fault of the service, not of the request): ${named.join("; ")}${more}. The X-Request-Id of this response identifies it in the server log.`,
    undefined,
    undefined,
    "invalid_response",
  );
}
