// `Expect: 100-continue` is answered with `100 Continue` only once the credentials passed
// (the layer checks them before the body is read), so a client without valid credentials
// never gets the server to wait for its body.
import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";

/** Requests whose client waits for `100 Continue` (the server's `checkContinue` listener adds them). */
export const awaitingContinue = new WeakSet<IncomingMessage>();

/**
 * Sends `100 Continue` to a client waiting for it, just before the body is read. With a
 * `checkContinue` listener on the server (server/start-server.ts) Node no longer sends it itself,
 * so a request that fails authentication never gets it.
 */
export function continueWhenExpected(): RequestHandler {
  return (req, res, next) => {
    if (awaitingContinue.delete(req) && !res.headersSent) res.writeContinue();
    next();
  };
}
