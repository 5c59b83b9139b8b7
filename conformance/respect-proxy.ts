// `redocly respect` runs in a child process with its own fetch: 40 s per request, no cap on a
// body, redirects followed with every custom header (X-Api-Key, X-Api-Secret) to whatever
// origin the target names. So the workflows do not talk to the target directly: they talk to
// this loopback proxy, which sends each request on with the run's bounded fetch (the same
// bounds as the checks) and hands back the answer, or, for an answer that breaks a bound,
// a 502 problem, remembering why so the step's report line can say it. A redirect is such a
// breach (Respect never sees its `Location`, so it cannot follow it anywhere), and so is a
// JSON body that does not parse.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { boundedFetch, type Limits } from "./bounded-fetch.js";
import { HostileAnswer } from "./errors.js";
import { isNotImplemented } from "./http.js";

// Headers of one connection (RFC 9110 §7.6.1), and the framing the proxy recomputes.
const hopByHop = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host", "content-length", "expect"]);

/** The `type` of the proxy's own 502 problems: its `detail` is why the target's answer was cut. */
export const proxyProblem = "urn:authsvc:conformance:answer-out-of-bounds";

export interface RespectProxy {
  /** The proxy's URL for the target's base URL (same path, loopback origin). */
  baseUrl: string;
  /** Why the last answer to `METHOD /path?query` broke a bound, if it did (for a step whose answer Respect did not record). */
  breach(method: string, url: string): string | undefined;
  /** Whether the last answer to `METHOD /path?query` was the documented 501 `not_implemented` (Respect does not always record a body). */
  notImplemented(method: string, url: string): boolean;
  /** The target's URL for a URL of the proxy, for reports. */
  targetUrl(url: string): string;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
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

const parses = (bytes: Uint8Array): boolean => jsonOf(bytes) !== unparsable;

export async function startRespectProxy(targetBaseUrl: string, limits: Limits): Promise<RespectProxy> {
  const target = new URL(targetBaseUrl);
  const breaches = new Map<string, string>();
  const notImplemented = new Set<string>();
  const server = createServer(async (incoming, outgoing) => {
    const key = `${incoming.method} ${incoming.url}`;
    try {
      const headers = Object.entries(incoming.headers).flatMap(([name, value]) =>
        hopByHop.has(name) || value === undefined ? [] : [[name, Array.isArray(value) ? value.join(", ") : value] as [string, string]],
      );
      const body = await bodyOf(incoming);
      const request = new Request(new URL(incoming.url ?? "/", target.origin), { method: incoming.method, headers, ...(body ? { body } : {}) });
      const { response, bytes } = await boundedFetch(request, limits);
      breaches.delete(key);
      if (response.status === 501 && isNotImplemented(501, response.headers.get("content-type") ?? undefined, jsonOf(bytes))) notImplemented.add(key);
      else notImplemented.delete(key);
      // Respect gives up its whole run on a JSON body it cannot parse (every later workflow
      // goes unreported): such a body is judged here, as a breach of its step alone.
      if (/json/i.test(response.headers.get("content-type") ?? "") && bytes.byteLength > 0 && !parses(bytes)) {
        const start = new TextDecoder().decode(bytes.subarray(0, 200));
        throw new HostileAnswer(`${request.method} ${request.url} → ${response.status}: body is not JSON, though its content type says so: ${start}`);
      }
      // fetch has decompressed the body: its encoding and length are the proxy's to state.
      const answered = [...response.headers].filter(([name]) => !hopByHop.has(name) && name !== "content-encoding");
      outgoing.writeHead(response.status, [...answered, ["content-length", String(bytes.byteLength)]].flat());
      outgoing.end(bytes);
    } catch (error) {
      const detail = error instanceof HostileAnswer ? error.message : `${key}: ${(error as Error).message}`;
      breaches.set(key, detail);
      const problem = JSON.stringify({ type: proxyProblem, title: "Bad Gateway", status: 502, detail });
      if (!outgoing.headersSent) outgoing.writeHead(502, { "content-type": "application/problem+json" });
      outgoing.end(problem);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keyOf = (method: string, url: string) => {
    const { pathname, search } = new URL(url, origin);
    return `${method.toUpperCase()} ${pathname}${search}`;
  };
  return {
    baseUrl: `${origin}${target.pathname.replace(/\/+$/, "")}`,
    breach: (method, url) => breaches.get(keyOf(method, url)),
    notImplemented: (method, url) => notImplemented.has(keyOf(method, url)),
    targetUrl: (url) => (url.startsWith(origin) ? `${target.origin}${url.slice(origin.length)}` : url),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
