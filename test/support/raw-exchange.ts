// One HTTP exchange on a raw socket, for what fetch cannot show or send: `100 Continue`
// before the answer, a body sent only after it, a trickled body, malformed header lines.
import { connect } from "node:net";

export interface ExchangeOptions {
  /** Written only once the server sent `100 Continue` (unless `drip`). */
  body?: string;
  /** Written right after the head. */
  start?: string;
  /** A byte every 300 ms instead of `body`. */
  drip?: boolean;
  /** The socket is destroyed (the promise rejects) if the server has not closed it by then (ms, default 10 000). */
  timeoutMs?: number;
  /** Resolves with what was read by then, closing the socket: for a connection the server keeps open (keep-alive). */
  readForMs?: number;
}

/** Writes `head` (`\n` line ends) and `start` to `origin`; resolves with all it read until the server closed, and the milliseconds that took. */
export function exchange(origin: string, head: string, options: ExchangeOptions = {}): Promise<{ text: string; ms: number }> {
  const { hostname, port } = new URL(origin);
  const host = hostname.replace(/^\[(.*)\]$/, "$1"); // an IPv6 literal without its brackets
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), host);
    let text = "";
    let sent = false;
    let drip: NodeJS.Timeout | undefined;
    socket.on("data", (chunk) => {
      text += chunk.toString();
      if (!sent && options.body !== undefined && text.startsWith("HTTP/1.1 100 Continue\r\n\r\n") && !options.drip) {
        sent = true;
        socket.write(options.body);
      }
    });
    socket.on("close", () => (clearInterval(drip), resolve({ text, ms: performance.now() - started })));
    socket.on("error", reject);
    socket.setTimeout(options.timeoutMs ?? 10_000, () => socket.destroy(new Error(`no close; read so far: ${text}`)));
    if (options.readForMs !== undefined) setTimeout(() => socket.destroy(), options.readForMs);
    socket.write(head.replace(/\n/g, "\r\n") + "\r\n" + (options.start ?? ""));
    if (options.drip) drip = setInterval(() => socket.write(" "), 300);
  });
}
