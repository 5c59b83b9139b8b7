// `Expect: 100-continue` is answered with `100 Continue` only once the credentials passed
// (the layer checks them before the body is read), so a client without valid credentials
// never gets the server to wait for its body. Any other reader of a waiting body (a host's
// own route, a path the layer passes on, a host parser in front of the layer) gets it as it
// starts reading (Node, without the layer, sends it at once): its client is not left to
// wait out its own timeout (curl: 1 s).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";

/** Requests whose client waits for `100 Continue` (the server's `checkContinue` listener adds them). */
const awaitingContinue = new WeakSet<IncomingMessage>();

/**
 * For the server's `checkContinue` listener: marks `req` as waiting, and sends `100 Continue`
 * when anyone starts reading its body, unless sent already (the layer's operations send it
 * after the credentials, before their reader starts) or the answer started. Reading includes
 * throwing the body away (`resume()`): Express's 404 and body-parser's refusal by
 * Content-Length wait for the body's end before they answer, so withholding it there would
 * hang the request until its timeout. After the layer's own 401, Node closes the connection
 * instead (a `100 Continue` was never sent), so nothing reads that body.
 */
export function holdContinue(req: IncomingMessage, res: ServerResponse): void {
  awaitingContinue.add(req);
  const read = req._read;
  // Every way of consuming a stream ('data', pipe, read(), async iteration) asks `_read` for data first.
  req._read = function (size: number) {
    if (awaitingContinue.delete(req) && !res.headersSent) res.writeContinue();
    return read.call(this, size);
  };
}

/**
 * Sends `100 Continue` to a client waiting for it, just before the body is read. With a
 * `checkContinue` listener on the server (server/contract-layer/listen.ts) Node no longer sends it itself,
 * so a request that fails authentication never gets it.
 */
export function continueWhenExpected(): RequestHandler {
  return (req, res, next) => {
    if (awaitingContinue.delete(req) && !res.headersSent) res.writeContinue();
    next();
  };
}
