// A raw HTTP/1.1 exchange over a socket: the bad-input corpus needs bytes that fetch and
// node:http refuse to send (a raw `..` path, invalid UTF-8, a CR/LF inside a header value).
import { connect } from "node:net";

export interface RawRequest {
  method: string;
  /** The request target exactly as sent, e.g. `/v1/widgets/%2e%2e`. */
  target: string;
  headers: [string, string][];
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function rawRequest(origin: URL, r: RawRequest): Promise<RawResponse> {
  const body = r.body === undefined ? undefined : Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body, "utf8");
  const headers: [string, string][] = [["host", origin.host], ["connection", "close"], ...r.headers];
  if (body && !headers.some(([name]) => name.toLowerCase() === "content-length")) headers.push(["content-length", String(body.length)]);
  const head = `${r.method} ${r.target} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join("")}\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(origin.port), origin.hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${r.method} ${r.target}`)));
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("end", () => resolve(parse(Buffer.concat(chunks))));
    socket.write(Buffer.concat([Buffer.from(head, "latin1"), body ?? Buffer.alloc(0)]));
  });
}

function parse(raw: Buffer): RawResponse {
  const split = raw.indexOf("\r\n\r\n");
  const [statusLine, ...lines] = raw.subarray(0, split).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(split + 4);
  if (headers["transfer-encoding"] === "chunked") body = dechunk(body);
  return { status: Number(statusLine!.split(" ")[1]), headers, body: body.toString("utf8") };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf("\r\n", at);
    const size = parseInt(data.subarray(at, eol).toString("latin1"), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
