// express-openapi-validator for one path of the document: an instance over a copy of the
// document holding only that path, so its route lookup (which compiles a path-to-regexp
// matcher per route on every request) tries one route, not every route of the document.
// It validates requests always and responses unless turned off; credentials are checked
// before it (server/http/security.ts), so its own security step is off. It validates only
// paths under its document's server URL, and matches `req.originalUrl` unless told to use
// `req.url`: the copy's server URL is the layer's base path and it reads `req.url`, so a
// contract app mounted under a prefix (`app.use("/api", …)`) is validated, not skipped.
import { createHash } from "node:crypto";
import type { RequestHandler } from "express";
import OpenApiValidator from "express-openapi-validator";
// Before any schema is compiled: closed bodies refuse keys named after Object.prototype members.
import "./ajv-unevaluated.js";
import type { ApiDocument } from "../http/document.js";
import { ResponseValidationFailed } from "../http/error-mapper.js";
import { chain } from "./router.js";

/**
 * The validator's middleware for the operations of `path`, built on the path's first
 * request: each instance compiles its schemas as soon as it is made (Ajv, ~0.2 s a path
 * here), so building all of them up front kept a starting server or mock from its first
 * answer for seconds, for paths it may never be asked for. Built once per process for the
 * same document, base path and response setting: the middleware holds no state of the app
 * it serves, so a second app over the same document (a mock beside a server, a test's
 * servers) reuses the compiled schemas instead of paying for them again.
 */
export function pathValidator(document: ApiDocument, basePath: string, path: string, validateResponses: boolean): RequestHandler[] {
  let built: RequestHandler | undefined;
  const build = (): RequestHandler => {
    const key = JSON.stringify([fingerprint(document), basePath, path, validateResponses]);
    let cached = compiled.get(key);
    if (!cached) {
      cached = chain(buildPathValidator(document, basePath, path, validateResponses));
      // A process serves one document or a few (tests vary it): the oldest goes past the cap.
      if (compiled.size >= maxCompiled) compiled.delete(compiled.keys().next().value!);
      compiled.set(key, cached);
    }
    return cached;
  };
  return [(req, res, next) => (built ??= build())(req, res, next)];
}

const maxCompiled = 200;
const compiled = new Map<string, RequestHandler>();
const fingerprints = new WeakMap<ApiDocument, string>();

/** A digest of the document's content: apps load their own copy, so identity cannot tell two copies of one document apart. */
function fingerprint(document: ApiDocument): string {
  let digest = fingerprints.get(document);
  if (!digest) fingerprints.set(document, (digest = createHash("sha256").update(JSON.stringify(document)).digest("hex")));
  return digest;
}

function buildPathValidator(document: ApiDocument, basePath: string, path: string, validateResponses: boolean): RequestHandler[] {
  // The validator mutates the document it is given (it deletes `components.examples`).
  const onePath = structuredClone({ ...document, servers: [{ url: basePath || "/" }], paths: { [path]: document.paths![path]! } });
  return OpenApiValidator.middleware({
    apiSpec: onePath as never,
    useRequestUrl: true,
    validateApiSpec: false, // linted in CI; skipping it saves start-up time
    // coerceTypes false keeps JSON bodies strict ("true" is not a boolean); eov coerces
    // path, query and header strings on its own. allErrors: one errors[] item per value.
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, allErrors: true },
    validateResponses: validateResponses
      ? {
          // Thrown from eov's res.json hook: the off-contract body is never sent, the
          // mapper answers a generic 500 and logs "response validation failed".
          onError: (error) => {
            throw new ResponseValidationFailed(error);
          },
        }
      : false,
    validateSecurity: false,
  }) as RequestHandler[];
}
