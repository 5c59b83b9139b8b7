// The response headers the document marks `required: true` (X-Request-Id, RateLimit,
// RateLimit-Policy) are on every answer the reference server gives that declares them:
// each operation's success (200, a DELETE's 204), 400 (a bad value, a repeated credential header, a body that is not
// JSON), 401, 404, 413, 415 and 429, read from the server, not assumed. Headers that depend
// on the request (CORS, Retry-After on some answers, WWW-Authenticate) stay optional.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../generated/operations.js";
import { startHarness, type Harness } from "../server/middleware/harness.js";
import { appA } from "../support/demo.js";
import { credentialsFor, operationIds, validRequest } from "../support/requests.js";
import { deref, doc, operations as documentOperations } from "./document.js";

const conditional = ["Access-Control-Allow-Origin", "Retry-After", "WWW-Authenticate"];

/** The names of the headers a response of `operationId` with `status` declares required. */
function requiredHeaders(operationId: string, status: number): string[] {
  const { op } = documentOperations().find(({ op }) => op.operationId === operationId)!;
  const response = deref(op.responses[String(status)]);
  return Object.entries<object>(response.headers ?? {})
    .filter(([, header]) => deref(header).required === true)
    .map(([name]) => name);
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** One request with raw headers (so a header can be sent twice), answered status and headers. */
function send(server: Harness, method: string, path: string, rawHeaders: string[], body?: string): Promise<Answer> {
  const url = new URL(`${server.url}${path}`);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers: ["host", url.host, ...rawHeaders] as never },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const flat = (headers: Record<string, string>) => Object.entries(headers).flat();
const json = ["content-type", "application/json"];

let server: Harness;
beforeAll(async () => {
  server = await startHarness({ rateLimit: { limit: 1_000, windowMs: 60_000 } });
});
afterAll(() => server?.close());

/** For each operation, requests that make it answer each status its responses declare. */
function cases(operationId: (typeof operationIds)[number]): [string, number, () => Promise<Answer>][] {
  const valid = validRequest(operationId);
  const credentials = flat(credentialsFor(operationId, appA));
  const body = valid.body === undefined ? undefined : JSON.stringify(valid.body);
  const withBody = body === undefined ? [] : json;
  const template = documentOperations().find(({ op }) => op.operationId === operationId)!.path as string;
  const list: [string, number, () => Promise<Answer>][] = [
    ["a valid request", operations[operationId].successStatus, () => send(server, valid.method, valid.path, [...credentials, ...withBody], body)],
    ["no credentials", 401, () => send(server, valid.method, valid.path, withBody, body)],
    ["a credential header sent twice", 400, () => send(server, valid.method, valid.path, [...credentials, ...credentials, ...withBody], body)],
    ["an unknown query parameter", 400, () => send(server, valid.method, `${valid.path}?no_such_parameter=1`, [...credentials, ...withBody], body)],
  ];
  if (body !== undefined) {
    list.push(
      ["a body that is not JSON", 400, () => send(server, valid.method, valid.path, [...credentials, ...json], "{")],
      ["a body over the limit", 413, () => send(server, valid.method, valid.path, [...credentials, ...json], JSON.stringify({ pad: "x".repeat(200_000) }))],
      ["a body that is not application/json", 415, () => send(server, valid.method, valid.path, [...credentials, "content-type", "text/plain"], "x")],
    );
  }
  if (template.includes("{id}")) {
    list.push(["an unknown id", 404, () => send(server, valid.method, template.replace("{id}", "no_such_id"), [...credentials, ...withBody], body)]);
  }
  return list;
}

describe("required response headers, as the reference server sends them", () => {
  it("marks X-Request-Id, RateLimit and RateLimit-Policy required, and the conditional headers not", () => {
    const headers = doc.components.headers;
    for (const name of ["X-Request-Id", "RateLimit", "RateLimit-Policy"]) expect(headers[name].required, name).toBe(true);
    for (const name of conditional) expect(headers[name].required ?? false, name).toBe(false);
  });

  describe.each(operationIds.map((id) => [id] as const))("%s", (operationId) => {
    it.each(cases(operationId))("%s: the %i answer carries every header it declares required", async (_, status, call) => {
      const answer = await call();
      expect(answer.status).toBe(status);
      const required = requiredHeaders(operationId, status);
      expect(required).toContain("X-Request-Id");
      const missing = required.filter((name) => answer.headers[name.toLowerCase()] === undefined);
      expect(missing).toEqual([]);
    });
  });

  it("sends them on a 429 too", async () => {
    const limited = await startHarness({ rateLimit: { limit: 1, windowMs: 60_000 } });
    try {
      const valid = validRequest("findWebhooks");
      const credentials = flat(credentialsFor("findWebhooks", appA));
      await send(limited, valid.method, valid.path, credentials);
      const answer = await send(limited, valid.method, valid.path, credentials);
      expect(answer.status).toBe(429);
      const missing = requiredHeaders("findWebhooks", 429).filter((name) => answer.headers[name.toLowerCase()] === undefined);
      expect(requiredHeaders("findWebhooks", 429)).toEqual(expect.arrayContaining(["X-Request-Id", "RateLimit", "RateLimit-Policy"]));
      expect(missing).toEqual([]);
    } finally {
      await limited.close();
    }
  });
});
