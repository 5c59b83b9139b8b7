// Shared by the HTTP-layer suites: a server on a free port with its log lines captured in
// memory, requests sent with plain fetch, and the Problem schema check. The demo
// applications, valid requests and credentials come from test/support.
import { request as httpRequest } from "node:http";
import { expect } from "vitest";
import { startServer, type RunningServer, type StartOptions } from "../../support/server.js";
import { componentValidator } from "../../support/document.js";
import { captureLogs } from "../../support/logs.js";
import { problemSubtypes } from "../../../server/problems.js";

export interface Harness extends RunningServer {
  /** Every log line written so far, parsed. */
  logs: Record<string, unknown>[];
  /** Every log line written so far, as written. */
  rawLogs: string[];
}

/** A server on a free port whose pino lines (level debug and up) land in memory. */
export async function startHarness(options: StartOptions = {}): Promise<Harness> {
  const captured = captureLogs("debug");
  const running = await startServer({ logger: captured.logger, ...options });
  return {
    ...running,
    rawLogs: captured.lines,
    get logs() {
      return captured.records;
    },
  };
}

type Json = Record<string, unknown>;

/** Sends one request to a running server (plain fetch: no client-side checks in the way). */
export async function send(server: { url: string }, request: { method: string; path: string; body?: unknown }, headers: Record<string, string> = {}): Promise<Response> {
  const body = request.body === undefined || typeof request.body === "string" ? request.body : JSON.stringify(request.body);
  const withType = body === undefined ? headers : { "content-type": "application/json", ...headers };
  return fetch(`${server.url}${request.path}`, { method: request.method, headers: withType, body });
}

const problemSchema = componentValidator("#/components/schemas/Problem");

/** Reads a problem response and checks its media type and schema; returns the body. */
export async function problemOf(response: Response): Promise<Json & { code: string; status: number; detail: string; errors?: Json[] }> {
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body = (await response.json()) as Json & { code: string; status: number; detail: string };
  const valid = problemSchema(body);
  expect(problemSchema.errors ?? [], "problem body matches the document's Problem schema").toEqual([]);
  expect(valid).toBe(true);
  expect(body.status).toBe(response.status);
  // The code's own type, or a narrower one of that code (invalid_response is an internal_error).
  const kinds = [body.code, ...Object.entries(problemSubtypes).flatMap(([subtype, { code }]) => (code === body.code ? [subtype] : []))];
  expect(kinds.map((kind) => `https://api.authsvc.example/problems/${kind}`)).toContain(body.type);
  return body;
}

/**
 * A GET sent from a local address of one's choice: all of 127.0.0.0/8 is this machine's
 * loopback, so 127.0.0.2 and 127.0.0.3 are two clients the server tells apart by their socket
 * address, with no proxy or X-Forwarded-For involved.
 */
export function getFrom(server: { url: string }, path: string, localAddress: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${server.url}${path}`, { localAddress, headers, agent: false }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, body }));
    });
    request.on("error", reject);
    request.end();
  });
}
