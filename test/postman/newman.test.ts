// The generated Postman collection (generated/postman/, scripts/postman.ts) run by Newman
// against the reference server (in process, demo data) and the mock (`npm run mock`'s entry,
// spawned on a free port), with the shipped local environments (only `baseUrl` pointed at
// the free port): every request gets the success status the document gives its operation.
// Also: one request per named request example, both key headers on POST /notifications,
// one environment per server, no variable the environments leave undefined.
import { spawn, type ChildProcess } from "node:child_process";
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
let onServer: { outcomes: Outcome[]; stats: Node };
let onMock: { outcomes: Outcome[]; stats: Node };

beforeAll(async () => {
  server = await startServer({ closeTimeoutMs: 0 });
  mock = spawn(process.execPath, ["--import", "tsx", "mock/main.ts"], { cwd: root, env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
  const mockUrl = await printedUrl(mock, "the mock").url;
  [onServer, onMock] = await Promise.all([runNewman("local-server", server.url), runNewman("local-mock", mockUrl)]);
}, 240_000);

afterAll(async () => {
  if (mock && mock.exitCode === null) mock.kill("SIGTERM");
  await server?.close();
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

  it("gets every documented success status from the reference server", () => {
    expect(failures(onServer), JSON.stringify(failures(onServer))).toEqual([]);
    expect(onServer.outcomes).toHaveLength(requests.length);
    expect(onServer.stats.assertions).toMatchObject({ total: requests.length, failed: 0 });
  });

  it("gets every documented success status from the mock", () => {
    expect(failures(onMock), JSON.stringify(failures(onMock))).toEqual([]);
    expect(onMock.outcomes).toHaveLength(requests.length);
    expect(onMock.stats.assertions).toMatchObject({ total: requests.length, failed: 0 });
  });
});
