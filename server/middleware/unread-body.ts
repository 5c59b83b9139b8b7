// An answer given while a large request body is still arriving (a 401 before the body is
// read, a 404, 405 or 429, a GET's answer with a body sent anyway) closes the connection.
// Kept alive, Node reads and throws away the rest of the body before the next request on
// that connection, for as long as the request timeout allows: a client declaring
// `Content-Length: 10000000000` without credentials made a server read gigabytes for
// nothing. Closed, the server stops reading once the answer is written.
//
// A body declared within the body limit is left to Node to discard: it reads at most that
// much (what the layer would read to parse it), and the client keeps its connection, as a
// load balancer's pooled connection should after a 401. A body without a declared length
// (chunked) could be endless, so it closes too. A request whose body already arrived whole
// (`req.complete`, e.g. a body a serverless platform read) is not waiting for anything.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";

/** Whether more than `limitBytes` of the request's body may still arrive. */
function largeBodyArriving(req: IncomingMessage, limitBytes: number): boolean {
  if (req.complete) return false;
  const declared = req.headers["content-length"];
  if (declared === undefined) return req.headers["transfer-encoding"] !== undefined;
  return !(Number(declared) <= limitBytes);
}

/** The step, first in the layer: any answer the layer writes while such a body is arriving says `Connection: close`. */
export function closeWhenBodyUnread(limitBytes: number): RequestHandler {
  return (req, res, next) => {
    const writeHead = res.writeHead as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
    // The last moment before the status line goes out: a body read by then keeps the connection.
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      if (largeBodyArriving(req, limitBytes)) this.setHeader("Connection", "close");
      return writeHead.apply(this, args);
    } as typeof res.writeHead;
    next();
  };
}
