// The judgements every check shares. Each throws a ConformanceError whose message names
// what broke (status, content type, envelope `type`, or the schema path), so a report
// says why a target fails, not only that it does.
import { operations, type OperationId } from "../generated/operations.js";
import { problemSchemaErrors, successSchemaErrors } from "./document.js";
import { ConformanceError } from "./errors.js";
import { invalidResponseCause, isNotImplemented, notImplementedHint, type Observed } from "./http.js";

function fail(message: string): never {
  throw new ConformanceError(message);
}

/**
 * The request, the start of the body (what the answer says went wrong instead, for the 500 of
 * a service's own invalid answer or the documented 501), and for a 5xx the X-Request-Id
 * that finds the failure in the target's log.
 */
function snippet(observed: Observed): string {
  const text =
    invalidResponseCause(observed.status, observed.body) ??
    (isNotImplemented(observed.status, observed.contentType, observed.body) ? notImplementedHint : undefined) ??
    (observed.text.length > 200 ? `${observed.text.slice(0, 200)}…` : observed.text);
  const id = observed.status >= 500 ? observed.headers.get("x-request-id") : null;
  return `${observed.request}: ${id ? `${text}; X-Request-Id: ${id}` : text}`;
}

function mediaType(observed: Observed): string {
  return observed.contentType.split(";")[0]!.trim().toLowerCase();
}

/** Status 200, `application/json`, the envelope with the operation's `type`, the body valid. */
export function expectSuccess(operationId: OperationId, observed: Observed): void {
  const { successStatus, responseType } = operations[operationId] as { successStatus: number; responseType: string | null };
  if (observed.status !== successStatus) fail(`status: expected ${successStatus}, got ${observed.status} (${snippet(observed)})`);
  // A success without a JSON envelope (a 204 of a deletion): its status is the whole answer.
  if (responseType === null) return;
  if (mediaType(observed) !== "application/json") fail(`content type: expected application/json, got "${observed.contentType}"`);
  const body = observed.body as { type?: unknown } | undefined;
  if (body === undefined) fail(`body is not JSON: ${snippet(observed)}`);
  if (body?.type !== responseType) fail(`type: expected "${responseType}", got ${JSON.stringify(body?.type)}`);
  const errors = successSchemaErrors(operationId, body);
  if (errors) fail(`body does not match the ${successStatus} response schema: ${errors}`);
}

/** The given error status as an RFC 9457 problem, valid against Problem. */
export function expectProblem(status: number, observed: Observed): void {
  if (observed.status !== status) fail(`status: expected ${status}, got ${observed.status} (${snippet(observed)})`);
  if (mediaType(observed) !== "application/problem+json") {
    fail(`content type: expected application/problem+json, got "${observed.contentType}"`);
  }
  const errors = problemSchemaErrors(observed.body);
  if (errors) fail(`body is not a Problem: ${errors}`);
  const problem = observed.body as { status: number };
  if (problem.status !== status) fail(`problem status: expected ${status}, got ${problem.status}`);
}

/** Fails unless `condition` holds. */
export function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) fail(message);
}
