// The generated Postman collection (generated/postman/, scripts/postman.ts) run by Newman
// against the reference server (in process, demo data) and the mock (`npm run mock`'s entry,
// spawned on a free port), with the shipped local environments (only `baseUrl` pointed at
// the free port): every request passes its tests, which check what the document says of the
// operation's success (status, required headers, JSON content type, body schema); against a
// server that answers the right statuses with wrong bodies and no headers, the header and
// schema tests fail. Also: one request per named request example, both key headers on POST
// /notifications, one environment per server, no variable the environments leave undefined.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../generated/operations.js";
import { startServer, type RunningServer } from "../../server/reference-server.js";
import { doc, resolveRef } from "../support/document.js";
import { printedUrl } from "../support/printed-url.js";
import { root } from "../tooling/run.js";

type Node = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const newman = createRequire(import.meta.url)("newman") as { run(options: Node, done: (error: Error | null, summary: Node) => void): void };

const dir = join(root, "generated/postman");
const read = (file: string): Node => JSON.parse(readFileSync(join(dir, file), "utf8"));
const collection = read("collection.json");
const environments = ["production", "local-mock", "local-server"].map((name) => ({ name, env: read(`${name}.postman_environment.json`) }));
const requests: Node[] = collection.item.flatMap((folder: Node) => folder.item);

interface Outcome {
  name: string;
  code?: number;
  failed: string[];
}

/** The number of `pm.test` calls in a request's test script. */
const testsIn = (request: Node): number => request.event.flatMap((e: Node) => e.script.exec).filter((line: string) => line.startsWith("pm.test(")).length;
const testCount = requests.reduce((sum, request) => sum + testsIn(request), 0);

/** The documented success status of each operation, by `METHOD /path` as a request's test names it. */
const successes = Object.values(operations).map(({ method, path, successStatus }) => ({
  method: method.toUpperCase(),
  pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  successStatus: successStatus as number,
}));

/** A server that answers every request with its operation's documented status, a body off every schema and none of the documented headers. */
function wrongBodies(): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "").replace(/^\/v1/, "").split("?")[0] ?? "";
    const status = successes.find((s) => s.method === req.method && s.pattern.test(path))?.successStatus ?? 404;
    req.resume();
    res.writeHead(status, { "content-type": "application/json" }).end(status === 204 ? undefined : JSON.stringify({ type: "not.this.operation" }));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function runNewman(environment: string, baseUrl: string): Promise<{ outcomes: Outcome[]; stats: Node }> {
  return new Promise((resolve, reject) =>
    newman.run(
      { collection, environment: read(`${environment}.postman_environment.json`), envVar: [{ key: "baseUrl", value: baseUrl }], reporters: [] },
      (error, summary) => {
        if (error) return reject(error);
        const outcomes = summary.run.executions.map((e: Node) => ({
          name: e.item.name,
          code: e.response?.code,
          failed: (e.assertions ?? []).filter((a: Node) => a.error).map((a: Node) => a.error.message),
        }));
        resolve({ outcomes, stats: summary.run.stats });
      },
    ),
  );
}

let server: RunningServer;
let mock: ChildProcess;
let wrong: Server;
let onServer: { outcomes: Outcome[]; stats: Node };
let onMock: { outcomes: Outcome[]; stats: Node };
let onWrong: { outcomes: Outcome[]; stats: Node };

beforeAll(async () => {
  server = await startServer({ closeTimeoutMs: 0 });
  wrong = await wrongBodies();
  mock = spawn(process.execPath, ["--import", "tsx", "mock/main.ts"], { cwd: root, env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
  const mockUrl = await printedUrl(mock, "the mock").url;
  const wrongUrl = `http://127.0.0.1:${(wrong.address() as AddressInfo).port}/v1`;
  [onServer, onMock, onWrong] = await Promise.all([runNewman("local-server", server.url), runNewman("local-mock", mockUrl), runNewman("local-server", wrongUrl)]);
}, 240_000);

afterAll(async () => {
  if (mock && mock.exitCode === null) mock.kill("SIGTERM");
  await server?.close();
  await new Promise((resolve) => wrong?.close(resolve));
});

const failures = (run: { outcomes: Outcome[] }) => run.outcomes.filter((o) => o.failed.length > 0 || o.code === undefined);

describe("the Postman collection", () => {
  it("has one request per operation and per named request example of it", () => {
    let expected = 0;
    for (const item of Object.values<Node>(doc.paths)) {
      for (const op of Object.values<Node>(item)) {
        if (!op?.operationId) continue;
        const body = op.requestBody?.$ref ? resolveRef(op.requestBody.$ref) : op.requestBody;
        expected += Math.max(1, Object.keys(body?.content?.["application/json"]?.examples ?? {}).length);
      }
    }
    expect(requests).toHaveLength(expected);
    const described = new Set(requests.map((r) => r.request.description.split(/[,.]/)[0]));
    expect([...described].sort()).toEqual(Object.keys(operations).sort());
  });

  it("sends both credentials of the key pair on POST /notifications and the bearer key elsewhere", () => {
    const keyPair = ["X-Api-Key: {{apiKey}}", "X-Api-Secret: {{apiSecret}}"];
    const bearer = ["Authorization: Bearer {{apiKey}}"];
    expect(requests.length).toBeGreaterThan(0);
    for (const r of requests) {
      const headers: string[] = r.request.header.map((h: Node) => `${h.key}: ${h.value}`);
      const pair = r.request.method === "POST" && r.request.url.raw.endsWith("/notifications");
      const [own, other] = pair ? [keyPair, bearer] : [bearer, keyPair];
      expect(headers, r.name).toEqual(expect.arrayContaining(own));
      expect(
        headers.filter((header) => other.includes(header)),
        r.name,
      ).toEqual([]);
    }
    expect(requests.some((r) => r.request.method === "POST" && r.request.url.raw.endsWith("/notifications"))).toBe(true);
  });

  it("has an environment per server of the document, each defining every variable the collection uses", () => {
    expect(environments.map((e) => e.env.values.find((v: Node) => v.key === "baseUrl").value).sort()).toEqual(doc.servers.map((s: Node) => s.url).sort());
    const used = new Set([...JSON.stringify(collection).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]));
    for (const { name, env } of environments)
      expect(
        [...used].filter((v) => !env.values.some((e: Node) => e.key === v)),
        name,
      ).toEqual([]);
  });

  it("tests each request's status, required headers, content type and body schema, as the document gives them", () => {
    for (const request of requests) {
      const script = request.event.flatMap((e: Node) => e.script.exec).join("\n");
      const [, { method, path, successStatus }] = Object.entries(operations).find(([operationId]) => request.request.description.startsWith(operationId))!;
      const op = doc.paths[path][method];
      const success = String(successStatus);
      const response = op.responses[success].$ref ? resolveRef(op.responses[success].$ref) : op.responses[success];
      expect(script, request.name).toContain(`pm.response.to.have.status(${success})`);
      for (const [name, header] of Object.entries<Node>(response.headers ?? {})) {
        const required = (header.$ref ? resolveRef(header.$ref) : header).required === true;
        expect(script.includes(`pm.response.to.have.header("${name}")`), `${request.name}: ${name}`).toBe(required);
      }
      expect(script.includes("pm.response.to.have.jsonSchema("), request.name).toBe(response.content?.["application/json"] !== undefined);
    }
  });

  it("passes every test of every request against the reference server", () => {
    expect(failures(onServer), JSON.stringify(failures(onServer))).toEqual([]);
    expect(onServer.outcomes).toHaveLength(requests.length);
    expect(onServer.stats.assertions).toMatchObject({ total: testCount, failed: 0 });
  });

  it("passes every test of every request against the mock", () => {
    expect(failures(onMock), JSON.stringify(failures(onMock))).toEqual([]);
    expect(onMock.outcomes).toHaveLength(requests.length);
    expect(onMock.stats.assertions).toMatchObject({ total: testCount, failed: 0 });
  });

  it("fails the header and schema tests, and only those, against a server that answers wrong bodies with the right statuses", () => {
    const failed = onWrong.outcomes.flatMap((o) => o.failed);
    expect(onWrong.outcomes.every((o) => o.code !== undefined && o.failed.length > 0)).toBe(true);
    expect(failed.some((message) => /X-Request-Id/.test(message))).toBe(true);
    expect(failed.some((message) => /schema/i.test(message))).toBe(true);
    expect(failed.some((message) => /status/i.test(message))).toBe(false);
  });
});
