// Servers on 127.0.0.1 (port 0, in-process) that misbehave the ways an upstream can: a
// redirect to another origin, a body that never ends, one that stops, one of 1 GB, headers
// sent one line at a time. Each records what it received and what it wrote, and stops
// writing when the client goes away. Used by hostile.test.ts and by the script that
// measures the same cases' time and memory (test/client/hostile-measure.ts).
import { createServer as createHttpServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from "node:net";

export interface Running {
  baseUrl: string;
  origin: string;
  /** Headers of every request received, in order. */
  received: IncomingHttpHeaders[];
  /** Body bytes written so far, over all answers. */
  written: () => number;
  close: () => Promise<void>;
}

async function listen(server: Server, sockets: Set<Socket>): Promise<string> {
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server, sockets: Set<Socket>, timers: Set<ReturnType<typeof setInterval>>) {
  return async () => {
    for (const timer of timers) clearInterval(timer);
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

/** An HTTP server answering every request with `answer`; `every` repeats a write until the client leaves. */
export async function httpServer(
  answer: (response: ServerResponse, tools: { every: (ms: number, write: () => boolean) => void; count: (bytes: number) => void }) => void,
): Promise<Running> {
  const received: IncomingHttpHeaders[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setInterval>>();
  let written = 0;
  const server = createHttpServer((request, response) => {
    received.push(request.headers);
    request.resume();
    const every = (ms: number, write: () => boolean) => {
      const timer = setInterval(() => {
        if (response.destroyed || !write()) {
          clearInterval(timer);
          timers.delete(timer);
        }
      }, ms);
      timers.add(timer);
      response.on("close", () => {
        clearInterval(timer);
        timers.delete(timer);
      });
    };
    answer(response, { every, count: (bytes) => (written += bytes) });
  });
  const origin = await listen(server, sockets);
  return { baseUrl: `${origin}/v1`, origin, received, written: () => written, close: closer(server, sockets, timers) };
}

/** Answers a status line, then one more header line every `ms`, never ending the head. */
export async function tricklingHeaders(ms: number): Promise<Running> {
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setInterval>>();
  let written = 0;
  const server = createNetServer((socket) => {
    socket.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n");
    let line = 0;
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      const header = `X-Trickle-${line++}: ${"a".repeat(8)}\r\n`;
      written += header.length;
      socket.write(header);
    }, ms);
    timers.add(timer);
    socket.on("close", () => clearInterval(timer));
    socket.on("error", () => {});
  });
  const origin = await listen(server, sockets);
  return { baseUrl: `${origin}/v1`, origin, received: [], written: () => written, close: closer(server, sockets, timers) };
}

/** A lazily generated body of `total` bytes in 64 KiB chunks, written as fast as the client reads (back-pressure). */
export function streamBytes(response: ServerResponse, total: number, count: (bytes: number) => void): void {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  const pump = () => {
    while (sent < total && !response.destroyed) {
      const size = Math.min(chunk.length, total - sent);
      sent += size;
      count(size);
      if (!response.write(size === chunk.length ? chunk : chunk.subarray(0, size))) return void response.once("drain", pump);
    }
    if (sent >= total) response.end();
  };
  pump();
}
