// One valid request per operation, built from the document's examples (path ids and bodies
// are application A's demo records), and the credentials an operation takes, as headers.
import { operations, type OperationId } from "../../generated/operations.js";
import { credentialHeaders, hasId, schemeOf } from "../../conformance/requests.js";
import { exampleBody, exampleId } from "./document.js";

/**
 * Every operationId, the deleting ones last: a suite that sends each operation's valid
 * request to one server in this order never deletes a record a later request reads.
 */
const deletes = (operationId: OperationId) => Number((operations[operationId].method as string) === "delete");
export const operationIds = (Object.keys(operations) as OperationId[]).sort((a, b) => deletes(a) - deletes(b));

// The scheme, `{id}` and header rules are the shipped conformance suite's, written once.
export { credentialHeaders, hasId, schemeOf, type Scheme } from "../../conformance/requests.js";

export const usesBearer = (operationId: OperationId): boolean => schemeOf(operationId) === "bearer";

/** The headers a correct client of `app` sends to the operation. */
export function credentialsFor(operationId: OperationId, app: { apiKey: string; apiSecret?: string }): Record<string, string> {
  return credentialHeaders(schemeOf(operationId), app);
}

export interface ValidRequest {
  operationId: OperationId;
  /** Upper case, as sent. */
  method: string;
  /** Path below the base URL, the example id filled in and percent-encoded. */
  path: string;
  /** The first request-body example, as JSON data (absent when the operation takes none). */
  body?: unknown;
}

/** A request the operation answers with its success status for application A (given A's credentials). */
export function validRequest(operationId: OperationId): ValidRequest {
  const { method, path, hasBody } = operations[operationId];
  return {
    operationId,
    method: method.toUpperCase(),
    path: hasId(operationId) ? path.replace("{id}", encodeURIComponent(exampleId(operationId))) : path,
    ...(hasBody ? { body: exampleBody(operationId) } : {}),
  };
}
