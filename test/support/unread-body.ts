// A client that declares a huge body and sends it as fast as the server takes it, for the
// question "how much does the server read of a body it answered without reading?": the
// status line it got, the bytes it could write before the server closed, and how long that
// took. It gives up (and says so) once it has written `maxBytes` or `maxMs` has passed, so a
// server that keeps reading costs a bounded amount of the run.
import { connect } from "node:net";

export interface UnreadBodyOptions {
  /** The declared Content-Length (default 10 GB), or "chunked": no length, endless chunks. */
  declaredBytes?: number | "chunked";
  /** Stop writing (and report `closedBy: "client"`) past this many bytes written. */
  maxBytes: number;
  /** Stop (and report `closedBy: "client"`) after this long. */
  maxMs: number;
  /** Extra header lines (`Name: value`), e.g. credentials. */
  headers?: string[];
  method?: string;
}

export interface UnreadBodyResult {
  /** The answer's status line, e.g. `HTTP/1.1 401 Unauthorized`, or "" if none was read. */
  statusLine: string;
  /** The answer's `Connection` header, lower-cased, or undefined. */
  connection: string | undefined;
  /** Bytes of the body the client wrote into the socket (what the server could have read, at most). */
  bytesWritten: number;
  /** From the first byte sent to the socket closing. */
  ms: number;
  /** Who ended it: the server (closed or reset the connection) or this client (a limit reached). */
  closedBy: "server" | "client";
}

const chunk = Buffer.alloc(64 * 1024, 0x20);
/** The same bytes as one chunk of a chunked body. */
const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]);

/** Sends `method path` to `origin` with a declared body of `declaredBytes` and writes it until the server closes or a limit is reached. */
export function sendUnreadBody(origin: string, path: string, options: UnreadBodyOptions): Promise<UnreadBodyResult> {
  const { hostname, port } = new URL(origin);
  const { declaredBytes = 10_000_000_000, method = "PUT", headers = [] } = options;
  const piece = declaredBytes === "chunked" ? framed : chunk;
  const length = declaredBytes === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${declaredBytes}`;
  const type = headers.some((line) => /^content-type:/i.test(line)) ? [] : ["Content-Type: application/json"];
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname.replace(/^\[(.*)\]$/, "$1"));
    let answer = "";
    let written = 0;
    let closedBy: "server" | "client" = "server";
    const giveUp = () => {
      closedBy = "client";
      socket.destroy();
    };
    const timer = setTimeout(giveUp, options.maxMs);
    socket.on("data", (data: Buffer) => {
      if (answer.length < 4096) answer += data.toString("latin1");
    });
    // A reset (the server closed with body bytes still unread in its buffer) is a close too.
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      const head = answer.split("\r\n\r\n", 1)[0] ?? "";
      resolve({
        statusLine: head.split("\r\n", 1)[0] ?? "",
        connection: /\r\nconnection: *([^\r]*)/i.exec(head)?.[1]?.toLowerCase(),
        bytesWritten: written,
        ms: performance.now() - started,
        closedBy,
      });
    });
    const pump = () => {
      while (!socket.destroyed) {
        if (written >= options.maxBytes) return giveUp();
        written += piece.length;
        if (!socket.write(piece)) return void socket.once("drain", pump);
      }
    };
    socket.write([`${method} ${path} HTTP/1.1`, "Host: localhost", ...type, length, ...headers, "", ""].join("\r\n"));
    pump();
  });
}
