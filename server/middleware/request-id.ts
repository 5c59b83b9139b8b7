// The request id: the client's X-Request-Id when it is a safe token, else a fresh UUID.
// It is set on every response (errors included) and bound to every log line of the request.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

export const requestIdHeader = "X-Request-Id";

/** 1–128 characters of `A-Z a-z 0-9 . _ : -`: nothing that could forge a log line or a header. */
const safeRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of this request; also sets the response header. Called once per request by the request logger. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const sent = req.headers["x-request-id"];
  const id = typeof sent === "string" && safeRequestId.test(sent) ? sent : randomUUID();
  res.setHeader(requestIdHeader, id);
  return id;
}
