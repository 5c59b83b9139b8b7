// The shipped Arazzo workflows, run by `redocly respect`, against the reference server
// (in process, demo data) and the mock (`npm run mock`'s entry, spawned on a free port).
// Respect checks each step's success criteria, and the status, content type and schema of
// every answer against the document. The server passes every step; the mock every step of
// the workflows that need no state, but one (below).
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../generated/operations.js";
import { startServer, type RunningServer } from "../../server/reference-server.js";
import { printedUrl } from "../support/printed-url.js";
import { root } from "../tooling/run.js";
import { doc, resolveRef } from "../support/document.js";
import { workflowSteps } from "../../conformance/workflows.js";
import { declaredSteps, respect, statefulWorkflows, workflowsFile, type Respected } from "./respect.js";

let server: RunningServer;
let mock: ChildProcess;
let onServer: Respected;
let onMock: Respected;

beforeAll(async () => {
  server = await startServer({ closeTimeoutMs: 0 });
  mock = spawn(process.execPath, ["--import", "tsx", "mock/main.ts"], { cwd: root, env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
  const mockUrl = await printedUrl(mock, "the mock").url;
  [onServer, onMock] = await Promise.all([respect(server.url), respect(mockUrl, statefulWorkflows)]);
}, 240_000);

afterAll(async () => {
  if (mock && mock.exitCode === null) mock.kill("SIGTERM");
  await server?.close();
});

const key = (s: { workflowId: string; stepId: string }) => `${s.workflowId}/${s.stepId}`;

describe("the Arazzo workflows", () => {
  // A deleting operation's success is the TypeScript suite's (it uses up a disposable record).
  it("call each of the document's operations, but a deleting one", () => {
    const text = readFileSync(workflowsFile, "utf8");
    const called = new Set([...text.matchAll(/operationId: \$sourceDescriptions\.openapi\.(\w+)/g)].map((m) => m[1]));
    const expected = Object.entries(operations)
      .filter(([, op]) => (op.method as string) !== "delete")
      .map(([id]) => id);
    expect([...called].sort()).toEqual(expected.sort());
  });

  // A notification goes to everyone at a time to come instead of to the example's receivers,
  // groups or `now`: the run names no record of the demo data and sends nothing now.
  it("send only the document's named request examples as bodies, a notification's targets and time aside", () => {
    const withoutTargets = (body: unknown) => {
      if (!body || typeof body !== "object") return JSON.stringify(body);
      const { receivers: _r, groups: _g, broadcast: _b, send_at: _s, ...rest } = body as Record<string, unknown>;
      return JSON.stringify(rest);
    };
    const deref = (node: unknown) => ((node as { $ref?: string })?.$ref ? resolveRef((node as { $ref: string }).$ref) : node);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const examples = Object.values<any>(doc.paths).flatMap((item) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      Object.values<any>(item).flatMap((op) =>
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        Object.values<any>(deref(op?.requestBody)?.content ?? {}).flatMap((media) => Object.values<any>(media.examples ?? {}).map((e) => withoutTargets(deref(e).value))),
      ),
    );
    const sent = onServer.steps.filter((s) => s.body !== undefined);
    expect(sent.length).toBeGreaterThanOrEqual(8);
    for (const step of sent) expect(examples, key(step)).toContain(withoutTargets(step.body));
    const notifications = sent.filter((s) => s.workflowId === "notification-types").map((s) => s.body as Record<string, unknown>);
    expect(notifications.length).toBeGreaterThanOrEqual(4);
    for (const body of notifications) expect(body).toMatchObject({ broadcast: true, send_at: expect.any(Number) });
    for (const body of notifications) expect(body.send_at as number).toBeGreaterThan(Date.now() / 1000);
    for (const body of notifications) expect(Object.keys(body).filter((k) => k === "receivers" || k === "groups")).toEqual([]);
  });

  it("are shipped as generated/integration.arazzo.json, which authsvc-api conformance reads: every declared step, every input known", () => {
    expect(workflowSteps().map((s) => `${s.workflow}/${s.stepId}`)).toEqual(declaredSteps());
    const stateful = [
      ...new Set(
        workflowSteps()
          .filter((s) => s.statefulBecause)
          .map((s) => s.workflow),
      ),
    ];
    expect(stateful).toEqual(statefulWorkflows);
  });

  it("pass every step against the reference server", () => {
    const failed = onServer.steps.filter((s) => s.status !== "success").map((s) => `${key(s)}: ${s.detail}`);
    expect(failed, onServer.output.slice(-3000)).toEqual([]);
    expect(onServer.steps.map(key)).toEqual(declaredSteps());
    expect(onServer.code).toBe(0);
  });

  it("pass every stateless step against the mock", () => {
    const expected = declaredSteps().filter((s) => !statefulWorkflows.includes(s.split("/")[0]!));
    expect(onMock.steps.map(key)).toEqual(expected);
    const failed = onMock.steps.filter((s) => s.status !== "success").map(key);
    expect(failed, onMock.steps.map((s) => `${key(s)} ${s.status}: ${s.detail}`).join("\n")).toEqual([]);
  });
});
