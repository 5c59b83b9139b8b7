// Shared by the HTTP-layer suites: a server on a free port with its log lines captured in
// memory, one valid request per operation built from the document (path ids and bodies are
// the document's own examples, which the demo seed holds), and the Problem schema check.
import { Writable } from "node:stream";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { pino } from "pino";
import { expect } from "vitest";
import { operations, type OperationId } from "../../../generated/operations.js";
import { startServer, type RunningServer, type StartOptions } from "../../../server/listen.js";
import { loadDocument, resolveRef } from "../../../server/http/document.js";

export const acme = {
  apiKey: "ak_live_acme_4f9e2b7c1d8a6e3f",
  apiSecret: "as_live_acme_9b1e6d3f7a2c5e8b",
};
export const globex = {
  apiKey: "ak_live_globex_2d7a9c4e1f6b3a8d",
  apiSecret: "as_live_globex_5e8b2f1c7d4a9e6b",
};

export const operationIds = Object.keys(operations) as OperationId[];
export const usesBearer = (id: OperationId) => operations[id].security[0] === "bearerAuth";

export interface Harness extends RunningServer {
  /** Every log line written so far, parsed. */
  logs: Record<string, unknown>[];
  /** Every log line written so far, as written. */
  rawLogs: string[];
}

/** A server on a free port whose pino lines (level debug and up) land in memory. */
export async function startHarness(options: StartOptions = {}): Promise<Harness> {
  const rawLogs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      rawLogs.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  const logger = pino({ level: "debug" }, destination);
  const running = await startServer({ logger, ...options });
  return {
    ...running,
    rawLogs,
    get logs() {
      return rawLogs.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
  };
}

const document = loadDocument();
type Json = Record<string, unknown>;

/** A request that operation `id` answers with 200 for application A (given its credentials). */
export function validRequest(id: OperationId): { method: string; path: string; body?: string } {
  const op = operations[id];
  const operation = (document.paths as Json)[op.path] as Json;
  const spec = operation[op.method] as { parameters?: unknown[]; requestBody?: unknown };
  let path: string = op.path;
  for (const ref of spec.parameters ?? []) {
    const parameter = resolveRef<{ in: string; name: string; example?: unknown }>(document, ref as never);
    if (parameter.in === "path") path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(parameter.example)));
  }
  let body: string | undefined;
  if (spec.requestBody) {
    const content = resolveRef<{ content: Record<string, { examples: Record<string, unknown> }> }>(document, spec.requestBody as never);
    const example = resolveRef<{ value: unknown }>(document, Object.values(content.content["application/json"]!.examples)[0] as never);
    body = JSON.stringify(example.value);
  }
  return { method: op.method.toUpperCase(), path, ...(body === undefined ? {} : { body }) };
}

/** The headers a correct client sends to operation `id`. */
export function rightCredentials(id: OperationId, who = acme): Record<string, string> {
  return usesBearer(id) ? { authorization: `Bearer ${who.apiKey}` } : { "x-api-key": who.apiKey, "x-api-secret": who.apiSecret };
}

/** Sends one request to a running server (plain fetch: no client-side checks in the way). */
export async function send(
  server: { url: string },
  request: { method: string; path: string; body?: string },
  headers: Record<string, string> = {},
): Promise<Response> {
  const withType = request.body === undefined ? headers : { "content-type": "application/json", ...headers };
  return fetch(`${server.url}${request.path}`, { method: request.method, headers: withType, body: request.body });
}

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
ajv.addSchema({ $id: "doc", components: (document as unknown as Json).components } as never);
const problemSchema = ajv.getSchema("doc#/components/schemas/Problem")!;

/** Reads a problem response and checks its media type and schema; returns the body. */
export async function problemOf(response: Response): Promise<Json & { code: string; status: number; detail: string; errors?: Json[] }> {
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body = (await response.json()) as Json & { code: string; status: number; detail: string };
  const valid = problemSchema(body);
  expect(problemSchema.errors ?? [], "problem body matches the document's Problem schema").toEqual([]);
  expect(valid).toBe(true);
  expect(body.status).toBe(response.status);
  expect(body.type).toBe(`https://api.authsvc.example/problems/${body.code}`);
  return body;
}
