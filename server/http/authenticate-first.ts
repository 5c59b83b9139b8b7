// Credentials are checked before the body is read: a client without valid credentials cannot
// make the server read (or wait for) a body, and `Expect: 100-continue` is answered with
// `100 Continue` only once the credentials passed. The same security handlers as the
// validator's run here; the validator's later check reuses their result.
import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import { ApiProblem } from "../problems.js";
import type { ApiDocument } from "./document.js";
import { operationRouter } from "./operation-router.js";
import type { SecurityHandlers } from "./security.js";

type Scheme = keyof SecurityHandlers;

/** The middleware, mounted at the base path before the body parser. */
export function authenticateFirst(document: ApiDocument, handlers: SecurityHandlers): RequestHandler {
  return operationRouter(document, ({ operation }) => {
    const requirements = operation.security ?? document.security ?? [];
    // Alternatives (several requirements) are left to the validator, which knows "any of".
    if (requirements.length !== 1) return undefined;
    const schemes = Object.keys(requirements[0]!) as Scheme[];
    if (schemes.length === 0 || !schemes.every((scheme) => scheme in handlers)) return undefined;
    return async (req, _res, next) => {
      try {
        for (const scheme of schemes) await handlers[scheme](req);
        next();
      } catch (error) {
        const { status, message } = error as { status?: number; message?: string };
        if (status === 401) {
          const challenge = schemes.includes("bearerAuth") ? { "WWW-Authenticate": "Bearer" } : undefined;
          next(new ApiProblem("unauthorized", message ?? "unauthorized", undefined, challenge));
        } else {
          // Shaped as the validator reports a failing handler, so the mapper answers it alike.
          next(Object.assign(new Error(message), { status: status ?? 500, errors: [] }));
        }
      }
    };
  });
}

/** Requests whose client waits for `100 Continue` (the server's `checkContinue` listener adds them). */
export const awaitingContinue = new WeakSet<IncomingMessage>();

/**
 * Sends `100 Continue` to a client waiting for it, just before the body is read. With a
 * `checkContinue` listener on the server (server/listen.ts) Node no longer sends it itself,
 * so a request that fails authentication never gets it.
 */
export function continueWhenExpected(): RequestHandler {
  return (req, res, next) => {
    if (awaitingContinue.delete(req) && !res.headersSent) res.writeContinue();
    next();
  };
}
