// Problem bodies for the errors Node answers before any request reaches the app: a malformed
// request (400), a request not received within the request timeout (408), headers over the
// size limit (431). Node's own answers have no body; these carry the same RFC 9457 problem
// as every other error.
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { ApiProblem, problemKinds, problemTypeBase } from "../problems.js";

/** The problem for one of Node's client errors (its `code`). */
export function clientErrorProblem(code: string | undefined): ApiProblem {
  switch (code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiProblem("request_timeout", "The request was not received in time; send it again.");
    case "HPE_HEADER_OVERFLOW":
      return new ApiProblem("headers_too_large", "The request headers are larger than the server accepts.");
    default:
      return new ApiProblem("validation_failed", "The request is not valid HTTP/1.1.");
  }
}

/** The raw HTTP answer for a client error: a problem body, then the connection closes. */
export function clientErrorResponse(code: string | undefined): string {
  const problem = clientErrorProblem(code);
  // No request line was parsed (or it cannot be trusted), so there is no path for `instance`.
  const body = JSON.stringify({
    type: `${problemTypeBase}${problem.code}`,
    title: problemKinds[problem.code].title,
    status: problem.status,
    detail: problem.detail,
    instance: "/",
    code: problem.code,
  });
  return [
    `HTTP/1.1 ${problem.status} ${problemKinds[problem.code].title}`,
    "Content-Type: application/problem+json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "X-Content-Type-Options: nosniff",
    "Cache-Control: no-store",
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

/** Answers Node's client errors with problems; a socket that cannot be written to is just closed. */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // ECONNRESET and the like: the client is gone, there is no one to answer.
    if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    // A response already started on this socket (a timeout during a slow upload) cannot get a second status line.
    if ((socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) return void socket.destroy();
    socket.end(clientErrorResponse(error.code));
  });
}
