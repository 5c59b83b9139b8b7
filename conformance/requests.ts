// Which credentials an operation takes and how they go on a request, read from the
// generated operations table (the tests' request helpers use the same functions).
import { operations, type OperationId } from "../generated/operations.js";

/** The credentials scheme an operation takes. */
export type Scheme = "bearer" | "keyPair";

export function schemeOf(operationId: OperationId): Scheme {
  return operations[operationId].security[0] === "apiKey" ? "keyPair" : "bearer";
}

/** Whether the operation's path has an `{id}`. */
export function hasId(operationId: OperationId): boolean {
  return operations[operationId].path.includes("{id}");
}

/** The headers of one scheme for an application's key (and secret). */
export function credentialHeaders(scheme: Scheme, app: { apiKey: string; apiSecret?: string | undefined }): Record<string, string> {
  return scheme === "bearer" ? { authorization: `Bearer ${app.apiKey}` } : { "x-api-key": app.apiKey, "x-api-secret": app.apiSecret ?? "" };
}
