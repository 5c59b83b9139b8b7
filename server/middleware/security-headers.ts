// Headers on every answer, errors included: `nosniff`, so a browser never runs a JSON body
// as another type, and `no-store`, so no cache keeps an answer given to one application's
// credentials.
import type { RequestHandler } from "express";

/** The middleware; first in the app so that every answer carries the headers. */
export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Cache-Control", "no-store");
    next();
  };
}
