// Targets that misbehave the ways a service under development (or an attacker) does, on
// loopback: an endless body, a body that stalls, 1 GB streamed lazily (as fast as it is
// read, never held), headers never sent, a redirect to another origin, a body that is not
// JSON. A plan says which operation misbehaves how; the others answer their documented
// example (without asking for credentials, as the broken double does), so one short run
// shows every hostility at once, and a plan of one hostility for every operation is the
// worst case (test/conformance/hostile-matrix.ts measures those runs). A second server,
// `elsewhere`, records every request it gets: the redirect points there, and nothing may
// arrive.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { OperationId } from "../../generated/operations.js";
import { successExample } from "../support/document.js";
import { routeOf } from "./broken-target.js";

export const hostilities = [
  "endless body",
  "stalled body",
  "1 GB body",
  "1 GB body, Content-Length",
  "headers never sent",
  "redirect to another origin",
  "garbage JSON",
] as const;
export type Hostility = (typeof hostilities)[number];

const gigabyte = 1024 ** 3;
const chunk = Buffer.alloc(64 * 1024, " ");

function misbehave(hostility: Hostility, response: ServerResponse, elsewhere: string, url: string): void {
  switch (hostility) {
    case "endless body": {
      response.writeHead(200, { "content-type": "application/json" }).write("[");
      const timer = setInterval(() => response.write("0,"), 10);
      response.on("close", () => clearInterval(timer));
      return;
    }
    case "stalled body":
      // Promises 100 bytes, sends 9, then nothing.
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" }).write('{"type":"');
      return;
    case "1 GB body":
    case "1 GB body, Content-Length": {
      // Chunked, the cap counting what arrives, or declared up front. Written only as fast as
      // it is read, so the double itself never holds more than a chunk.
      const declared = hostility === "1 GB body" ? {} : { "content-length": String(gigabyte) };
      response.writeHead(200, { "content-type": "application/json", ...declared });
      let sent = 0;
      const more = () => {
        while (sent < gigabyte && !response.destroyed) {
          sent += chunk.byteLength;
          if (!response.write(chunk)) return void response.once("drain", more);
        }
        if (!response.destroyed) response.end();
      };
      more();
      return;
    }
    case "headers never sent":
      return;
    case "redirect to another origin":
      response.writeHead(307, { location: `${elsewhere}${url}` }).end();
      return;
    case "garbage JSON":
      response.writeHead(200, { "content-type": "application/json" }).end('{"type":"api.widget.get","result":{"id":"wgt_5a3c8e1f7b92",<html>');
  }
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closing(server: Server): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

export interface HostileTarget {
  /** The base URL, ending in /v1. */
  url: string;
  /** The headers of every request the other origin got. */
  elsewhere: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** Which operation misbehaves how (undefined: it answers its example). */
export type Plan = (operationId: OperationId | undefined) => Hostility | undefined;

export async function startHostileTarget(plan: Plan): Promise<HostileTarget> {
  const received: IncomingHttpHeaders[] = [];
  const other = createServer((request, response) => {
    received.push(request.headers);
    request.resume();
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(successExample("readWidget")));
  });
  const elsewhere = await listen(other);
  const server = createServer((request, response) => {
    request.resume();
    const operationId = routeOf(request.method, request.url);
    const hostility = plan(operationId);
    if (hostility) return misbehave(hostility, response, elsewhere, request.url ?? "/");
    if (!operationId) return void response.writeHead(404, { "content-type": "application/problem+json" }).end("{}");
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(successExample(operationId)));
  });
  const url = `${await listen(server)}/v1`;
  const closeServer = closing(server);
  const closeOther = closing(other);
  return { url, elsewhere: received, close: async () => void (await Promise.all([closeServer(), closeOther()])) };
}
