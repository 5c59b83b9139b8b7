// The server package as a backend developer gets it: the run's consumer project with the
// packed packages and the peers Express and express-openapi-validator installed
// (test/support/pack.ts), a small service there
// (backend-consumer/service.mjs) implementing the nine handlers over its own in-memory map on
// the `/express` entry, and `npx authsvc-api-conformance` (the development package) run against it with a fixtures
// file: every check runs and passes. The same service without one handler does not start,
// naming it.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { operations } from "../../generated/operations.js";
import { successExample } from "../support/document.js";
import { fullProject, npx, run } from "../support/pack.js";
import { printedUrl } from "../support/printed-url.js";

const service = readFileSync(new URL("./backend-consumer/service.mjs", import.meta.url), "utf8");
const idOf = (operationId: keyof typeof operations) => (successExample(operationId) as { result: { id: string } }).result.id;
const fixtures = {
  widget: idOf("readWidget"),
  user: (successExample("findUserActivity") as { result: { account_id: string }[] }).result[0]!.account_id,
  smsProvider: "sms_1",
  webhook: idOf("readWebhook"),
  otherApplication: { apiKey: "key-b", apiSecret: "secret-b" },
};

let project: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  project = await fullProject();
  writeFileSync(join(project, "service.mjs"), service);
  writeFileSync(join(project, "fixtures.json"), JSON.stringify(fixtures));
}, 1_200_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Starts `node file` in the project; resolves with its URL, or rejects with its stderr when it exits first. */
function startService(file: string): { url: Promise<string>; exited: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [file], { cwd: project, env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  const printed = printedUrl(child, file);
  return { url: printed.url, exited: printed.exited.then((code) => ({ code, stderr: printed.stderr() })) };
}

describe("a service on the Express entry, in its own project", () => {
  it(`passes every conformance check (the service is ${service.split("\n").length - 1} lines)`, async () => {
    console.log(`backend consumer service: ${service.split("\n").length - 1} lines`);
    const url = await startService("service.mjs").url;
    const args = ["authsvc-api-conformance", "--base-url", url, "--api-key", "key-a", "--api-secret", "secret-a", "--fixtures", "fixtures.json", "--format", "json"];
    const { stdout } = await run(npx, args, { cwd: project, maxBuffer: 16 * 1024 * 1024 }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    const report = JSON.parse(stdout) as {
      totals: { checks: number; passed: number; failed: number; skipped: number };
      checks: { name: string; status: string; detail?: string }[];
    };
    expect(report.checks.filter((check) => check.status !== "passed")).toEqual([]);
    expect(report.totals.passed).toBe(report.totals.checks);
  }, 120_000);

  it("does not start without one of its handlers, naming it", async () => {
    const incomplete = service.replace(/^ {2}readWebhook: .*\n/m, "");
    expect(incomplete).not.toBe(service);
    writeFileSync(join(project, "incomplete.mjs"), incomplete);
    const { code, stderr } = await startService("incomplete.mjs").exited;
    expect(code).toBe(1);
    expect(stderr).toContain("The handler map does not match the OpenAPI document: no handler for readWebhook (GET /webhooks/{id}).");
  }, 60_000);
});
