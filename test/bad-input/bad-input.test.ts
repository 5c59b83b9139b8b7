// The bad-input corpus against the reference server: each row's status and problem code,
// every problem on the Problem schema with application/problem+json, nothing polluted, and
// the server still answering afterwards.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../support/server.js";
import { appA } from "../support/demo.js";
import { componentValidator, exampleId } from "../support/document.js";
import { captureLogs, leaks } from "../support/logs.js";
import { credentialsFor } from "../support/requests.js";
import { corpus, transportKey } from "./corpus.js";
import { rawRequest } from "./raw-http.js";

let server: RunningServer;
let origin: URL;
const isProblem = componentValidator("#/components/schemas/Problem");
const logs = captureLogs();
const answers: string[] = [];

beforeAll(async () => {
  server = await startServer({ rateLimit: false, logger: logs.logger });
  origin = new URL(server.url);
});
afterAll(() => server?.close());

describe("bad-input corpus", () => {
  it("has at least 60 cases, each named once", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60);
    expect(new Set(corpus.map((c) => `${c.category}: ${c.name}`)).size).toBe(corpus.length);
  });

  it.each(corpus.map((c) => [`${c.category}: ${c.name}`, c] as const))("%s", async (_, c) => {
    const res = await rawRequest(origin, c);
    answers.push(JSON.stringify(res.headers) + res.body);
    const parsed = res.body
      ? (() => {
          try {
            return JSON.parse(res.body);
          } catch {
            return undefined;
          }
        })()
      : undefined;
    // A row without a code is a success, whose body carries no code.
    expect({ status: res.status, code: parsed?.code ?? null }).toEqual(c.expect);
    const problem = c.expect.code !== null;
    expect(res.headers["content-type"]).toMatch(problem ? /^application\/problem\+json/ : /^application\/json/);
    expect(isProblem(parsed), JSON.stringify(isProblem.errors)).toBe(problem);
    expect(c.check?.(res)).toBeUndefined();
  });

  it("no answer and no log line holds a submitted key, secret or e-mail auth", () => {
    expect(logs.lines.length).toBeGreaterThanOrEqual(corpus.length - 5);
    const secrets = [appA.apiKey, appA.apiSecret, transportKey];
    expect(leaks(answers, secrets)).toEqual([]);
    expect(leaks(logs.lines, secrets)).toEqual([]);
  });

  it("left Object.prototype alone and the server answering", async () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).is_default).toBeUndefined();
    const res = await fetch(`${server.url}/widgets/${exampleId("readWidget")}`, { headers: credentialsFor("readWidget", appA) });
    expect(res.status).toBe(200);
  });
});
