// The answers to Node's own client errors (server/middleware/client-error.ts), which no app code
// sees: the exact bytes written for each, on a real server and raw socket for a malformed
// request, and which sockets get no answer at all (a reset client, a closed socket, a
// response already started). test/server/middleware/connection-limits.test.ts meets the same
// answers through the whole app and its request timeout.
import { createServer } from "node:http";
import { connect } from "node:net";
import type { Duplex } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { answerClientErrors, clientErrorResponse } from "../../../server/middleware/client-error.js";

/** The raw answer the server writes for `code`, as a client reads it. */
const expected = (status: string, code: string, title: string, detail: string) => {
  const body = `{"type":"https://api.authsvc.example/problems/${code}","title":"${title}","status":${status.split(" ")[0]},"detail":"${detail}","instance":"/","code":"${code}"}`;
  return [
    `HTTP/1.1 ${status}`,
    "Content-Type: application/problem+json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "X-Content-Type-Options: nosniff",
    "Cache-Control: no-store",
    "Connection: close",
    "",
    body,
  ].join("\r\n");
};

describe("clientErrorResponse", () => {
  it.each([
    ["ERR_HTTP_REQUEST_TIMEOUT", "408 Request timeout", "request_timeout", "Request timeout", "The request was not received in time; send it again."],
    [
      "HPE_HEADER_OVERFLOW",
      "431 Request header fields too large",
      "headers_too_large",
      "Request header fields too large",
      "The request headers are larger than the server accepts.",
    ],
    ["HPE_INVALID_HEADER_TOKEN", "400 Validation failed", "validation_failed", "Validation failed", "The request is not valid HTTP/1.1."],
    [undefined, "400 Validation failed", "validation_failed", "Validation failed", "The request is not valid HTTP/1.1."],
  ])("%s: %s, a problem body, then the connection closes", (nodeCode, status, code, title, detail) => {
    expect(clientErrorResponse(nodeCode)).toBe(expected(status, code, title, detail));
  });
});

describe("answerClientErrors", () => {
  it("answers a malformed request on the wire with the problem, then closes", async () => {
    const server = createServer(() => {
      throw new Error("no request reaches the app");
    });
    answerClientErrors(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      const text = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1");
        let read = "";
        socket.on("data", (chunk) => (read += chunk.toString()));
        socket.on("close", () => resolve(read));
        socket.on("error", reject);
        socket.setTimeout(5_000, () => socket.destroy(new Error(`no close; read so far: ${read}`)));
        socket.write("GET /v1/widgets/x HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n");
      });
      expect(text).toBe(expected("400 Validation failed", "validation_failed", "Validation failed", "The request is not valid HTTP/1.1."));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  /** A socket that records whether it was answered (`end`) or just closed (`destroy`). */
  const socket = (state: { writable: boolean; headersSent?: boolean }) =>
    ({
      writable: state.writable,
      ...(state.headersSent === undefined ? {} : { _httpMessage: { headersSent: state.headersSent } }),
      end: vi.fn(),
      destroy: vi.fn(),
    }) as unknown as Duplex & { end: ReturnType<typeof vi.fn>; destroy: ReturnType<typeof vi.fn> };
  const clientError = (code: string, target: Duplex) => {
    const server = createServer();
    answerClientErrors(server);
    server.emit("clientError", Object.assign(new Error(code), { code }), target);
  };

  it.each([
    ["a reset client (ECONNRESET), its socket still writable", "ECONNRESET", { writable: true }],
    ["a socket that can no longer be written", "HPE_INVALID_METHOD", { writable: false }],
    ["a socket whose response already started (a timeout during a slow upload)", "ERR_HTTP_REQUEST_TIMEOUT", { writable: true, headersSent: true }],
  ])("closes without an answer: %s", (_label, code, state) => {
    const target = socket(state);
    clientError(code, target);
    expect(target.destroy).toHaveBeenCalledOnce();
    expect(target.end).not.toHaveBeenCalled();
  });

  it("answers a writable socket whose response has not started", () => {
    const target = socket({ writable: true, headersSent: false });
    clientError("HPE_HEADER_OVERFLOW", target);
    expect(target.end.mock.calls).toEqual([[clientErrorResponse("HPE_HEADER_OVERFLOW")]]);
    expect(target.destroy).not.toHaveBeenCalled();
  });
});
