// `authsvc-api conformance` against a target whose answers are hostile, one hostility per
// operation in one run: each hostile answer is a FAIL line naming the request and why, the
// run ends with the summary and exit 1, and the redirect's other origin gets nothing (no
// request, so no credential). The bounds are small here (1 s, 64 kB) so the run is short
// (300 ms let a loaded CI machine miss the 1 GB answer's headers);
// test/conformance/hostile-matrix.ts measures the worst case with the defaults' shape.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleFixtures } from "../../conformance/calls.js";
import { preflight } from "../../conformance/preflight.js";
import { runWorkflows } from "../../conformance/workflows.js";
import type { OperationId } from "../../generated/operations.js";
import { type Hostility, hostilities, type HostileTarget, startHostileTarget } from "./hostile-target.js";
import { conformanceCommand, type Printed } from "./run-cli.js";

/** Each hostility on one operation; findEncryptionReports (the preflight's probe) and POST /notifications answer sanely. */
const plan: Record<Hostility, OperationId> = {
  "headers never sent": "readWidget",
  "stalled body": "findUserActivity",
  "endless body": "readWebhook",
  "1 GB body": "findWebhooks",
  "1 GB body, Content-Length": "saveEmailTransport",
  "redirect to another origin": "findWebhookHistory",
  "garbage JSON": "updateSmsProvider",
};

/** What the FAIL lines of each hostility say, after the request. */
const says: Record<Hostility, RegExp> = {
  "headers never sent": /: no answer within 1000 ms \(--request-timeout\)/,
  "stalled body": / → 200: body not complete within 1000 ms \(9 bytes received; --request-timeout\)/,
  "endless body": / → 200: body not complete within 1000 ms \(\d+ bytes received; --request-timeout\)/,
  "1 GB body": / → 200: body over the cap of 65536 bytes \(--max-response-bytes\): over 65536 bytes received, not read further/,
  "1 GB body, Content-Length": / → 200: body over the cap of 65536 bytes \(--max-response-bytes\): Content-Length 1073741824, not read further/,
  "redirect to another origin": / → 307: redirects to http:\/\/127\.0\.0\.1:\d+\/v1\/webhooks\/\S+; not followed \(credentials go to --base-url's origin only\)/,
  // A check judges it as any wrong answer, naming the request with the start of the body;
  // a workflow step is failed by the proxy, so Respect (which gives up its whole run on it)
  // never sees it.
  "garbage JSON": /got 200 \(PUT \S+: \{"type":"api\.widget\.get".*<html>|PUT \S+ → 200: body is not JSON, though its content type says so: \{"type"/,
};

const dir = mkdtempSync(join(tmpdir(), "conformance-hostile-"));
let target: HostileTarget;
let run: Printed;

/** The FAIL lines with their detail lines, by check name. */
function failures(out: string): Map<string, string> {
  const found = new Map<string, string>();
  let current: string | undefined;
  for (const line of out.split("\n")) {
    if (/^(PASS|FAIL|SKIP) {2}/.test(line)) current = line.startsWith("FAIL") ? line.slice(6) : undefined;
    else if (current && line.startsWith("        ")) found.set(current, `${found.get(current) ?? ""}${line.trim()}`);
  }
  return found;
}

beforeAll(async () => {
  const byOperation = new Map(Object.entries(plan).map(([hostility, operationId]) => [operationId, hostility as Hostility]));
  target = await startHostileTarget((operationId) => (operationId ? byOperation.get(operationId) : undefined));
  const fixtures = join(dir, "fixtures.json");
  writeFileSync(fixtures, JSON.stringify(exampleFixtures()));
  const flags = ["--request-timeout", "1000", "--max-response-bytes", "65536"];
  run = await conformanceCommand(["--base-url", target.url, "--api-key", "ak_any", "--api-secret", "as_any", "--stateless", "--fixtures", fixtures, ...flags]);
}, 120_000);
afterAll(async () => {
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("authsvc-api conformance against hostile answers", () => {
  it("reports: the summary, a FAIL verdict and exit 1", () => {
    expect(run.err).toBe("");
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/\nconformance \[http:\/\/127\.0\.0\.1:\d+\/v1\]: \d+ checks, \d+ ran \(\d+ passed, \d+ failed\)/);
    expect(run.out).toMatch(/\nresult: FAIL: \d+ failed/);
  });

  it.each(hostilities.map((h) => [h]))("%s: every check of its operation is a FAIL line naming the request and the bound", (hostility) => {
    const operationId = plan[hostility];
    const lines = [...failures(run.out)].filter(([name]) => name.startsWith(`${operationId}: `));
    // Its 401s, 400s, 404 (and 415), and its workflow steps that ran.
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const [name, detail] of lines) {
      expect(detail, name).toMatch(/(GET|PUT|POST) http:\/\/127\.0\.0\.1:\d+\/v1\//);
      expect(detail, name).toMatch(says[hostility]);
    }
  });

  it("runs every workflow step the target can run: none is left unreported by a hostile answer elsewhere", () => {
    expect(run.out).not.toMatch(/not run: redocly respect reported nothing/);
    // notification-types answers sanely and passes; the two stateful ones are skipped (--stateless).
    expect(run.out).toMatch(/\narazzo: 8 workflows \(1 passed, 5 failed, 2 skipped\)/);
  });

  it("prints each check's line as it finishes: the first check's line comes a request timeout or more before the summary", () => {
    const checkLines = run.printed.filter((line) => /^(PASS|FAIL|SKIP) {2}\w+: (?!workflow )/.test(line.text));
    const summary = run.printed.find((line) => line.text.includes("\nconformance ["))!;
    expect(checkLines.length).toBeGreaterThan(10);
    // The checks of three operations wait out the 1000 ms timeout after the first check's line.
    expect(summary.at - checkLines[0]!.at).toBeGreaterThan(1000);
  });

  it("sends nothing to the origin a redirect names: no request, so no credential", () => {
    expect(target.elsewhere).toEqual([]);
  });

  it("stops redocly respect when it outlives --workflows-timeout: each step it was to run is a FAIL", async () => {
    const outcomes = await runWorkflows(
      { name: "hostile", baseUrl: target.url, apiKey: "ak_any", apiSecret: "as_any", stateful: false, fixtures: exampleFixtures() },
      { timeoutMs: 50 },
    );
    const failed = outcomes.filter((o) => o.status === "failed");
    expect(failed.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.status === "passed")).toEqual([]);
    for (const o of failed) expect(o.detail).toBe("not finished: redocly respect was stopped after 50 ms (--workflows-timeout)");
  });

  it("lets a hostile answer to the preflight's own requests through to the checks (no fixture error, no crash)", async () => {
    const silent = await startHostileTarget(() => "headers never sent");
    try {
      const fixtures = { ...exampleFixtures(), otherApplication: { apiKey: "ak_other", apiSecret: "as_other" } };
      const target = { name: "silent", baseUrl: silent.url, apiKey: "ak_any", stateful: true, fixtures, limits: { timeoutMs: 200 } };
      expect(await preflight(target)).toEqual([]);
    } finally {
      await silent.close();
    }
  });

  it("rejects a bound that is not a whole number above 0 (exit 2, one line)", async () => {
    const { code, err } = await conformanceCommand(["--base-url", target.url, "--api-key", "ak_any", "--request-timeout", "0"]);
    expect(code).toBe(2);
    expect(err).toBe('authsvc-api conformance: --request-timeout must be a whole number above 0, got "0" (--help for usage)');
  });
});
