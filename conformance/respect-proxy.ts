// `redocly respect` runs in a child process with its own fetch: 40 s per request, no cap on a
// body, redirects followed with every custom header (X-Api-Key, X-Api-Secret) to whatever
// origin the target names. So the workflows do not talk to the target directly: they talk to
// this loopback proxy, which sends each request on with the run's bounded fetch (the same
// bounds as the checks) and hands back the answer, or, for an answer that breaks a bound,
// a 502 problem, remembering why so the step's report line can say it. A redirect is such a
// breach (Respect never sees its `Location`, so it cannot follow it anywhere), and so is a
// JSON body that does not parse.
//
// Any local process can reach a loopback port, so the proxy is no forward proxy: it answers
// only requests whose path starts with this run's token (32 random bytes, known to Respect
// alone through its server URL), in origin form (`GET /<token>/v1/…`, never
// `GET http://host/…` or `//host/…`), whose path stays on the target's origin, with a body
// of at most `maxRequestBytes` received within the run's request timeout. Anything else gets
// a one-line text answer naming why, and the connection is closed; nothing is forwarded.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { boundedFetch, type Limits } from "./bounded-fetch.js";
import { HostileAnswer, TargetStalled } from "./errors.js";
import type { StallGuard } from "./stall.js";

// Headers of one connection (RFC 9110 §7.6.1), and the framing the proxy recomputes.
const hopByHop = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host", "content-length", "expect"]);

/** The `type` of the proxy's own 502 problems: its `detail` is why the target's answer was cut. */
export const proxyProblem = "urn:authsvc:conformance:answer-out-of-bounds";
/** The `type` of the proxy's 502 for a request it did not send: its `detail` is why (the target had stopped answering). */
export const proxyStalled = "urn:authsvc:conformance:target-stopped-answering";

/** The largest request body forwarded: the workflows send a few kB, and the document accepts at most 100 kB. */
export const maxRequestBytes = 256 * 1024;

/** What the target answered to one request, as far as the report needs it when Respect recorded no body. */
export interface Answered {
  status: number;
  contentType: string | undefined;
  /** The parsed JSON body, or undefined. */
  body: unknown;
}

export interface RespectProxy {
  /** The proxy's URL for the target's base URL: loopback origin, this run's token, then the target's path. */
  baseUrl: string;
  /**
   * Why the last request `METHOD /path?query` got the proxy's 502 instead of an answer, for a
   * step whose answer Respect did not record: a bound the answer broke, or (`stalled`) the
   * target had stopped answering before it, so it was not sent.
   */
  cut(method: string, url: string): { detail: string; stalled: boolean } | undefined;
  /** The last answer to `METHOD /path?query` when it was a 5xx (Respect does not always record a body). */
  answer(method: string, url: string): Answered | undefined;
  /** The target's URL for a URL of the proxy, for reports. */
  targetUrl(url: string): string;
  close(): Promise<void>;
}

/** A request the proxy will not forward: the status and the one line that says why. */
class Refused extends Error {
  constructor(
    readonly status: number,
    why: string,
  ) {
    super(`respect proxy: refused: ${why}`);
  }
}

const statusText: Record<number, string> = { 400: "Bad Request", 403: "Forbidden", 405: "Method Not Allowed", 408: "Request Timeout", 413: "Content Too Large" };

/** Writes a refusal on a bare socket (a request Node's parser stopped before the handler). */
function refuseOnSocket(socket: Duplex, refused: Refused): void {
  if (!socket.writable) return void socket.destroy();
  const body = `${refused.message}\n`;
  socket.end(
    `HTTP/1.1 ${refused.status} ${statusText[refused.status]}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function refuse(outgoing: ServerResponse, refused: Refused): void {
  if (outgoing.headersSent) return void outgoing.destroy();
  const body = `${refused.message}\n`;
  outgoing.writeHead(refused.status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(body), connection: "close" });
  outgoing.end(body);
}

/** The body, refused past `maxRequestBytes` (declared or received); undefined when empty. */
async function bodyOf(request: IncomingMessage): Promise<Buffer | undefined> {
  const declared = Number(request.headers["content-length"] ?? 0);
  if (declared > maxRequestBytes) throw new Refused(413, `request body over ${maxRequestBytes} bytes (Content-Length ${declared}); not read`);
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of request) {
    received += (chunk as Buffer).byteLength;
    if (received > maxRequestBytes) throw new Refused(413, `request body over ${maxRequestBytes} bytes; not read further`);
    chunks.push(chunk as Buffer);
  }
  return chunks.length > 0 ? Buffer.concat(chunks) : undefined;
}

const unparsable = Symbol("not JSON");

/** The JSON value of `bytes`, or `unparsable`. */
function jsonOf(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    return unparsable;
  }
}

export async function startRespectProxy(targetBaseUrl: string, limits: Limits, stall?: StallGuard): Promise<RespectProxy> {
  const target = new URL(targetBaseUrl);
  const token = Buffer.from(randomBytes(32).toString("base64url"));
  const cuts = new Map<string, { detail: string; stalled: boolean }>();
  const answers = new Map<string, Answered>();

  /** The target's URL for a request of Respect's, or a refusal naming why it is not one. */
  function targetOf(url: string): URL {
    if (url.startsWith("//")) throw new Refused(400, "a scheme-relative request target (//host/…); only origin-form paths under this run's token are forwarded");
    if (!url.startsWith("/"))
      throw new Refused(
        400,
        "not an origin-form request target (an absolute URL or an authority: a forward-proxy request); only paths under this run's token are forwarded",
      );
    const end = url.indexOf("/", 1);
    const given = Buffer.from(url.slice(1, end < 0 ? undefined : end));
    if (end < 0 || given.byteLength !== token.byteLength || !timingSafeEqual(given, token)) throw new Refused(403, "the path does not start with this run's token");
    const path = url.slice(end);
    const forwarded = new URL(`${target.origin}${path}`);
    // `/<token>//host/…` or `/<token>/\host/…`: a path that names another authority.
    if (path.startsWith("//") || path.startsWith("/\\") || forwarded.origin !== target.origin)
      throw new Refused(400, `the path after the token names another origin than the target's (${target.origin})`);
    return forwarded;
  }

  const server = createServer({ requestTimeout: limits.timeoutMs, headersTimeout: limits.timeoutMs, connectionsCheckingInterval: 1000 }, async (incoming, outgoing) => {
    let forwarded: URL;
    let body: Buffer | undefined;
    try {
      forwarded = targetOf(incoming.url ?? "");
      body = await bodyOf(incoming);
    } catch (error) {
      if (error instanceof Refused) return refuse(outgoing, error);
      // The request ended before its body did (a timeout answered by `clientError`, or the client left).
      return void outgoing.destroy();
    }
    const key = `${incoming.method} ${forwarded.pathname}${forwarded.search}`;
    try {
      const headers = Object.entries(incoming.headers).flatMap(([name, value]) =>
        hopByHop.has(name) || value === undefined ? [] : [[name, Array.isArray(value) ? value.join(", ") : value] as [string, string]],
      );
      const request = new Request(forwarded, { method: incoming.method, headers, ...(body ? { body } : {}) });
      const { response, bytes } = await boundedFetch(request, limits, stall);
      cuts.delete(key);
      const contentType = response.headers.get("content-type") ?? undefined;
      const json = bytes.byteLength > 0 ? jsonOf(bytes) : unparsable;
      // A 5xx says why the step failed (a 501 not_implemented, a 500 invalid_response): kept for the report.
      if (response.status >= 500) answers.set(key, { status: response.status, contentType, body: json === unparsable ? undefined : json });
      else answers.delete(key);
      // Respect gives up its whole run on a JSON body it cannot parse (every later workflow
      // goes unreported): such a body is judged here, as a breach of its step alone.
      if (/json/i.test(contentType ?? "") && bytes.byteLength > 0 && json === unparsable) {
        const start = new TextDecoder().decode(bytes.subarray(0, 200));
        throw new HostileAnswer(`${request.method} ${request.url} → ${response.status}: body is not JSON, though its content type says so: ${start}`);
      }
      // fetch has decompressed the body: its encoding and length are the proxy's to state.
      const answered = [...response.headers].filter(([name]) => !hopByHop.has(name) && name !== "content-encoding");
      outgoing.writeHead(response.status, [...answered, ["content-length", String(bytes.byteLength)]].flat());
      outgoing.end(bytes);
    } catch (error) {
      const stalled = error instanceof TargetStalled;
      const detail = error instanceof HostileAnswer || stalled ? error.message : `${key}: ${(error as Error).message}`;
      cuts.set(key, { detail, stalled });
      const problem = JSON.stringify({ type: stalled ? proxyStalled : proxyProblem, title: "Bad Gateway", status: 502, detail });
      if (!outgoing.headersSent) outgoing.writeHead(502, { "content-type": "application/problem+json" });
      outgoing.end(problem);
    }
  });
  // What Node's parser refuses before the handler: the request timeout (headers or body not
  // received in time), a CONNECT (a tunnel), a request that is not HTTP.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) =>
    refuseOnSocket(
      socket,
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? new Refused(408, `request not received within ${limits.timeoutMs} ms (--request-timeout)`)
        : new Refused(400, "not a well-formed HTTP/1.1 request"),
    ),
  );
  server.on("connect", (_request: IncomingMessage, socket: Duplex) =>
    refuseOnSocket(socket, new Refused(405, "CONNECT (a tunnel); only origin-form requests are forwarded")),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const prefix = `${origin}/${token.toString()}`;
  const keyOf = (method: string, url: string) => {
    const { pathname, search } = new URL(url.startsWith(prefix) ? url.slice(prefix.length) : url, target.origin);
    return `${method.toUpperCase()} ${pathname}${search}`;
  };
  return {
    baseUrl: `${prefix}${target.pathname.replace(/\/+$/, "")}`,
    cut: (method, url) => cuts.get(keyOf(method, url)),
    answer: (method, url) => answers.get(keyOf(method, url)),
    targetUrl: (url) => (url.startsWith(prefix) ? `${target.origin}${url.slice(prefix.length)}` : url),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
