// The operations of a document as the layer serves them: where each lives, the credential
// scheme it takes, and the media type of each documented 2xx response. Read once, when the
// app is built.
import { operationsOf, resolveRef, type ApiDocument } from "../document/load.js";
import type { ResponseObject } from "../document/types.js";

export interface ServedOperation {
  operationId: string;
  /** Lower case, as the document writes it. */
  method: string;
  /** The document's path template, e.g. `/widgets/{id}`. */
  path: string;
  /** The scheme names of the operation's one security requirement (empty: none). */
  security: string[];
  /** Each documented 2xx status and the media type of its body (undefined: no body). */
  successes: Map<number, string | undefined>;
}

/** `GET /widgets/{id}`, as messages name an operation. */
export const describeOperation = (operation: Pick<ServedOperation, "method" | "path">) => `${operation.method.toUpperCase()} ${operation.path}`;

function securityOf(document: ApiDocument, operationId: string, requirements: Record<string, string[]>[] | undefined): string[] {
  const list = requirements ?? document.security ?? [];
  if (list.length > 1) throw new Error(`${operationId} offers ${list.length} alternative security requirements; this layer checks one`);
  return Object.keys(list[0] ?? {});
}

/** Every operation of the document, with what the layer needs to serve it. */
export function servedOperations(document: ApiDocument): ServedOperation[] {
  return operationsOf(document).map(({ operationId, method, path, operation }) => {
    const successes = new Map<number, string | undefined>();
    for (const [status, ref] of Object.entries(operation.responses ?? {})) {
      if (!/^2\d\d$/.test(status)) continue;
      const response = resolveRef<ResponseObject>(document, ref);
      successes.set(Number(status), Object.keys(response.content ?? {})[0]);
    }
    return { operationId, method, path, security: securityOf(document, operationId, operation.security), successes };
  });
}
