// The check that the handler map and the document agree, run when the app is built: a
// document operation without a handler (it would answer nothing) and a handler without an
// operation (a typo, or an operation removed from the document) both stop the start, all
// of them named at once. A service moving one operation at a time behind the contract
// opts in to missing handlers (`missingHandlers: "not_implemented"`): they are then listed,
// not refused; a handler without an operation is refused either way.
import { describeOperation, type ServedOperation } from "./operations.js";

const named = (operations: readonly ServedOperation[]) => operations.map((operation) => `${operation.operationId} (${describeOperation(operation)})`).join(", ");

/**
 * Throws naming every operation without a handler (unless `allowMissing`) and every handler
 * without an operation; returns the operations without a handler.
 */
export function checkHandlerMap(operations: readonly ServedOperation[], handlers: object, options: { allowMissing?: boolean } = {}): ServedOperation[] {
  const given = new Set(Object.keys(handlers).filter((key) => typeof (handlers as Record<string, unknown>)[key] === "function"));
  const missing = operations.filter((operation) => !given.has(operation.operationId));
  const known = new Set(operations.map((operation) => operation.operationId));
  const extra = [...given].filter((operationId) => !known.has(operationId));
  const refusedMissing = options.allowMissing ? [] : missing;
  if (refusedMissing.length === 0 && extra.length === 0) return missing;
  const parts: string[] = [];
  if (refusedMissing.length > 0) parts.push(`no handler for ${named(refusedMissing)}`);
  if (extra.length > 0) parts.push(`no operation for the handler${extra.length === 1 ? "" : "s"} ${extra.join(", ")}`);
  throw new Error(`The handler map does not match the OpenAPI document: ${parts.join("; ")}.`);
}

/** The start-up line listing the operations answered with 501 `not_implemented`. */
export function missingHandlersMessage(missing: readonly ServedOperation[]): string {
  return `${missing.length} operation${missing.length === 1 ? "" : "s"} answer 501 not_implemented (no handler yet): ${named(missing)}.`;
}
