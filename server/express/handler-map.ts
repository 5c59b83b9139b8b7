// The check that the handler map and the document agree, run when the app is built: a
// document operation without a handler (it would answer nothing) and a handler without an
// operation (a typo, or an operation removed from the document) both stop the start, all
// of them named at once.
import { describeOperation, type ServedOperation } from "./operations.js";

/** Throws naming every operation without a handler and every handler without an operation. */
export function checkHandlerMap(operations: readonly ServedOperation[], handlers: object): void {
  const given = new Set(Object.keys(handlers).filter((key) => typeof (handlers as Record<string, unknown>)[key] === "function"));
  const missing = operations.filter((operation) => !given.has(operation.operationId));
  const known = new Set(operations.map((operation) => operation.operationId));
  const extra = [...given].filter((operationId) => !known.has(operationId));
  if (missing.length === 0 && extra.length === 0) return;
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`no handler for ${missing.map((operation) => `${operation.operationId} (${describeOperation(operation)})`).join(", ")}`);
  if (extra.length > 0) parts.push(`no operation for the handler${extra.length === 1 ? "" : "s"} ${extra.join(", ")}`);
  throw new Error(`The handler map does not match the OpenAPI document: ${parts.join("; ")}.`);
}
