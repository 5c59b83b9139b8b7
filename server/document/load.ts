// The bundled OpenAPI document (generated/openapi.json, never the multi-file source:
// express-openapi-validator has open bugs with multi-file $refs), and the few facts read
// from it. The one reader of the file for the server, the seed schema and the mock.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { deref, operationEntries } from "./walk.js";
import type { OpenApiDocument, OperationObject, ReferenceObject } from "./types.js";

export type ApiDocument = OpenApiDocument;

/**
 * Path of the bundled document, the one file server, mock, tests and consumers read:
 * `generated/openapi.json` two levels above this module, in this repository as in the `dist/`
 * of every package that ships this module (the build copies it there).
 */
export const documentFile = fileURLToPath(new URL("../../generated/openapi.json", import.meta.url));

/**
 * A fresh copy of the bundled document, read from disk on every call (so a regenerated
 * file is seen). The validator mutates the object it is given (it deletes
 * `components.examples`), so every app gets its own.
 */
export function loadDocument(): ApiDocument {
  return JSON.parse(readFileSync(documentFile, "utf8")) as ApiDocument;
}

/**
 * The path of the document's first server URL, e.g. `/v1` (no trailing slash). A relative
 * URL (`/v1`) is allowed, as OpenAPI allows it; a document without a server URL is refused:
 * both the server and the mock serve only under the base path it gives.
 */
export function basePathOf(document: Pick<ApiDocument, "servers">): string {
  const url = document.servers?.[0]?.url;
  if (!url) throw new Error("the bundled document declares no server URL");
  return new URL(url, "http://placeholder").pathname.replace(/\/+$/, "");
}

/** Follows local `$ref`s (`#/components/...`) until a non-reference object (server/document/walk.ts's deref, typed). */
export function resolveRef<T>(document: ApiDocument, value: T | ReferenceObject): T {
  return deref<T>(document, value);
}

/** One operation of the document with where it lives. */
export interface DocumentOperation {
  operationId: string;
  method: string;
  path: string;
  operation: OperationObject;
}

/** Every operation of the document that has an operationId. */
export function operationsOf(document: ApiDocument): DocumentOperation[] {
  return operationEntries<OperationObject>(document)
    .filter(({ operation }) => operation.operationId)
    .map(({ path, method, operation }) => ({ operationId: operation.operationId!, method, path, operation }));
}
