// `authsvc-api conformance` (cli/conformance.ts) as a user runs it: against the reference
// server over a seed whose every id and key differs from the demo data, with a fixtures
// file naming that seed's records (every workflow step and check runs and passes); without a fixtures file
// (the checks that need ids are skipped, each named with what it needs); against a broken
// target (exit 1); and with bad flags (exit 2, one line).
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conformanceCommand } from "./run-cli.js";
import { exampleFixtures } from "../../conformance/calls.js";
import type { JsonReport } from "../../conformance/report.js";
import { checks as tsChecks } from "../../conformance/suite.js";
import { workflowSteps } from "../../conformance/workflows.js";
import { startServer, type RunningServer } from "../support/server.js";
import { checkSeed, loadSeed } from "../../server/seed/load.js";
import type { Seed } from "../../server/seed/types.js";
import { createStore } from "../../server/store/memory.js";
import { startBrokenTarget } from "./broken-target.js";
import { doc } from "../support/document.js";

/** The demo seed with every id (`wgt_5a3c…`) and every clear key and secret replaced. */
function seedOfOtherIds(): Seed {
  const renamed = (old: string) => createHash("sha256").update(`other:${old}`).digest("hex");
  const text = JSON.stringify(loadSeed())
    .replace(/\b([a-z]{3})_([0-9a-f]{12})\b/g, (old, prefix: string) => `${prefix}_${renamed(old).slice(0, 12)}`)
    .replace(/\b(ak|as)_live_[a-z]+_[0-9a-f]+\b/g, (old, kind: string) => `${kind}_test_${renamed(old).slice(0, 24)}`);
  return checkSeed(JSON.parse(text));
}

const conformance = conformanceCommand;

const dir = mkdtempSync(join(tmpdir(), "conformance-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeJson(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

/** What one run reports: every workflow step, then every check of the TypeScript suite. */
const checks = [...workflowSteps(), ...tsChecks];
const needsAFixture = checks.filter((check) => (check.needs ?? []).some((need) => need !== "apiSecret"));

describe("authsvc-api conformance against the reference server over a seed of other ids", () => {
  let server: RunningServer;
  let base: string[];
  let fixturesFile: string;
  let fixtures: Record<string, unknown>;

  beforeAll(async () => {
    const seed = seedOfOtherIds();
    server = await startServer({ store: createStore(seed), rateLimit: false, failedAuthLimit: false });
    const [a, b] = seed.applications as [Seed["applications"][0], Seed["applications"][0]];
    const clear = (app: typeof a) => app.credentials[0] as { api_key: string; api_secret: string };
    base = ["--base-url", server.url, "--api-key", clear(a).api_key];
    fixtures = {
      widget: a.widgets[0]!.id,
      user: a.users[0]!.id,
      smsProvider: a.sms_providers.find((p) => p.is_default)!.id,
      webhook: a.webhooks[0]!.id,
      otherApplication: { apiKey: clear(b).api_key, apiSecret: clear(b).api_secret },
    };
    fixturesFile = writeJson("fixtures.json", fixtures);
    base.push("--api-secret", clear(a).api_secret);
  });
  afterAll(() => server?.close());

  it("uses none of the demo records: the fixtures are not the document's examples", () => {
    const examples = exampleFixtures();
    for (const key of Object.keys(examples) as (keyof typeof examples)[]) expect(fixtures[key]).not.toBe(examples[key]);
  });

  it("with the fixtures file, runs every check and passes (exit 0, --format json)", async () => {
    const { code, out } = await conformance([...base, "--fixtures", fixturesFile, "--format", "json"]);
    const report = JSON.parse(out) as JsonReport;
    expect(report.checks.filter((c) => c.status !== "passed")).toEqual([]);
    expect(report.totals).toEqual({ checks: checks.length, passed: checks.length, failed: 0, skipped: 0 });
    // Which contract the run held the service to: a conformance package at another version judges another one.
    expect(report.contract).toBe(doc.info.version);
    expect(code).toBe(0);
    expect(out, "the other application's secret is not echoed").not.toContain((fixtures.otherApplication as { apiSecret: string }).apiSecret);
  }, 360_000);

  it("without a fixtures file, skips exactly the checks that need an id and names what each needs", async () => {
    const { code, out } = await conformance([...base, "--format", "json"]);
    const report = JSON.parse(out) as JsonReport;
    const skipped = report.checks.filter((c) => c.status === "skipped");
    expect(skipped.map((c) => c.name).sort()).toEqual(needsAFixture.map((c) => c.name).sort());
    expect(skipped.length).toBeGreaterThan(0);
    for (const c of skipped) {
      const needed = checks.find((check) => check.name === c.name)!.needs!.filter((need) => need !== "apiSecret");
      expect(c.detail).toBe(`needs ${needed.join(", ")} in the fixtures file (--fixtures)`);
    }
    expect(report.totals.failed).toBe(0);
    expect(report.totals.passed).toBe(checks.length - needsAFixture.length);
    expect(code).toBe(0);
  }, 240_000);

  it("in text, prints a SKIP line per skipped check and the reasons in the summary", async () => {
    const { code, out } = await conformance(base);
    expect(code).toBe(0);
    for (const check of needsAFixture) expect(out).toContain(`SKIP  ${check.name}`);
    const providerOnly = needsAFixture.filter((c) => c.needs!.join() === "smsProvider").length;
    expect(providerOnly).toBeGreaterThan(0);
    expect(out).toContain(`skipped ${providerOnly}: needs smsProvider in the fixtures file (--fixtures)`);
  }, 240_000);

  it("without --api-secret, skips the checks that send the key pair and says so", async () => {
    const { code, out } = await conformance([...base.slice(0, 4), "--fixtures", fixturesFile, "--format", "json"]);
    const report = JSON.parse(out) as JsonReport;
    const skipped = report.checks.filter((c) => c.status === "skipped");
    expect(skipped.length).toBeGreaterThan(0);
    for (const c of skipped) expect(c.detail).toBe("needs --api-secret");
    expect(report.checks.filter((c) => c.status === "failed")).toEqual([]);
    expect(code).toBe(0);
  }, 240_000);
});

describe("authsvc-api conformance against a broken target", () => {
  it("exits 1 and names the failures in the JSON report", async () => {
    const double = await startBrokenTarget();
    try {
      const file = writeJson("examples.json", exampleFixtures());
      const { code, out } = await conformance([
        "--base-url",
        double.url,
        "--api-key",
        "ak_any",
        "--api-secret",
        "as_any",
        "--fixtures",
        file,
        "--format",
        "json",
        "--stateless",
      ]);
      const report = JSON.parse(out) as JsonReport;
      expect(code).toBe(1);
      expect(report.totals.failed).toBeGreaterThan(0);
      expect(report.checks.find((c) => c.name === "readWidget: workflow widget-and-user-activity, step widget")).toMatchObject({
        status: "failed",
        workflow: "widget-and-user-activity",
        detail: expect.stringContaining("body/type must be equal to constant"),
      });
    } finally {
      await double.close();
    }
  }, 240_000);
});

describe("authsvc-api conformance with bad flags", () => {
  const url = ["--base-url", "http://127.0.0.1:9/v1"];
  it.each([
    ["no --base-url", ["--api-key", "k"], "--base-url is required"],
    ["no --api-key", url, "--api-key is required"],
    ["an unknown flag", [...url, "--api-key", "k", "--colour"], "Unknown option '--colour'"],
    ["a bad format", [...url, "--api-key", "k", "--format", "xml"], "--format must be text or json"],
    ["a base URL that is not http", ["--base-url", "ftp://x/v1", "--api-key", "k"], "--base-url must be an http(s) URL"],
    ["a missing fixtures file", [...url, "--api-key", "k", "--fixtures", join(dir, "absent.json")], "cannot be read (ENOENT)"],
    ["a fixtures file with a typo", [...url, "--api-key", "k", "--fixtures", writeJson("typo.json", { widgit: "wgt_1" })], 'unknown key "widgit"'],
    ["a fixture id that is not a string", [...url, "--api-key", "k", "--fixtures", writeJson("number.json", { widget: 1 })], '"widget" must be a non-empty string'],
  ])("%s: exit 2 with one line", async (_name, argv, message) => {
    const { code, out, err } = await conformance(argv);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err.split("\n")).toHaveLength(1);
    expect(err).toContain(message);
  });

  it("through the bin dispatcher: exit 2 for an unknown command and for bad flags", async () => {
    const tsx = join(process.cwd(), "node_modules/.bin/tsx");
    const bin = join(process.cwd(), "cli/authsvc-api.ts");
    const failure = (argv: string[]) =>
      promisify(execFile)(tsx, [bin, ...argv]).then(
        () => ({ code: 0, stderr: "" }),
        (e: { code: number; stderr: string }) => e,
      );
    const bad = await failure(["conformance", "--api-key", "k"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe("authsvc-api conformance: --base-url is required (--help for usage)");
    expect((await failure(["no-such-command"])).code).toBe(2);
  });
});
