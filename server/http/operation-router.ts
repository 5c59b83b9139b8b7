// A router with one route per operation of the document, for checks that must run before
// express-openapi-validator has matched the request (eov's own router is not reachable
// from outside its middleware chain). The document's paths are the only list of routes.
import { Router, type RequestHandler } from "express";
import { operationsOf, type ApiDocument, type DocumentOperation } from "./document.js";

/** `/sms/providers/{id}` as an Express path, `/sms/providers/:id`. */
export const expressPath = (path: string) => path.replace(/\{([^}]+)\}/g, ":$1");

/**
 * A router (mount it at the base path) that runs `build(operation)`'s handler on requests to
 * that operation; operations for which `build` returns nothing get no route.
 */
export function operationRouter(document: ApiDocument, build: (operation: DocumentOperation) => RequestHandler | undefined): Router {
  // Same matching as the app: case-sensitive (an unknown case is eov's 404, not checked here).
  const router = Router({ caseSensitive: true, strict: false });
  for (const operation of operationsOf(document)) {
    const handler = build(operation);
    if (handler) router[operation.method as "get"](expressPath(operation.path), handler);
  }
  return router;
}
