// `npm run diff`: its exit codes (1 when the version does not cover the changes: a breaking
// change without a major bump, an addition without a minor bump; 0 otherwise; 2 bad
// arguments or unreadable documents, with one line saying why) and its three formats, on
// fixture documents, on a git ref of a throwaway repository, and on the packed release.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { doc } from "../support/document.js";
import { bin, root, run } from "../tooling/run.js";
import { breakingEdit, createRepo, raiseMajor } from "./repo.js";

const dir = mkdtempSync(join(tmpdir(), "contract-diff-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const diff = (args: string[], cwd = root) => run(bin("tsx"), [join(root, "scripts/diff/main.ts"), ...args], cwd);

function write(name: string, change: (d: typeof doc) => void = () => {}, version = "1.0.0"): string {
  const copy = structuredClone(doc);
  copy.info.version = version; // whatever the document's version is today
  change(copy);
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(copy));
  return file;
}

const base = write("base.json");
const breaking = write("breaking.json", (d) => (d.components.parameters.ReportStatus.required = true));
const breakingMajor = write("breaking-2.0.0.json", (d) => {
  d.components.parameters.ReportStatus.required = true;
  d.info.version = "2.0.0";
});
const describedOnly = write("described.json", (d) => (d.paths["/webhooks"].get.description = "Another text."));

// Additions: a client may now send something new, so the release is at least a minor one.
const addOperation = (d: typeof doc) => (d.paths["/webhooks/{id}"].delete = { ...structuredClone(d.paths["/webhooks/{id}"].get), operationId: "deleteWebhook" });
const addRequestField = (d: typeof doc) => (d.components.schemas.SmsProviderUpdate.properties.channel = { type: "string" });
const addRequestEnumValue = (d: typeof doc) => d.components.schemas.SmsProviderUpdate.properties.sort.enum.push("TOP");
const additions = { "an operation": addOperation, "a request field": addRequestField, "a request enum value": addRequestEnumValue };

describe("npm run diff", { timeout: 120_000 }, () => {
  it("exits 1 on a breaking change without a major bump, naming the rule, the operation and where", async () => {
    const { code, output } = await diff(["--base", base, "--head", breaking]);
    expect(code).toBe(1);
    expect(output).toContain("BREAKING  parameter-became-required");
    expect(output).toContain("operation: GET /reports/encryption");
    expect(output).toMatch(/at: #\/paths\/~1reports~1encryption\/get\/parameters\/\d+ \(required\)/);
    expect(output).toContain("FAIL: 1 breaking change(s) without a major version bump (1.0.0 → 1.0.0; needs 2.0.0 or later).");
  });

  it.each(Object.entries(additions))("exits 1 on %s added without a minor bump, 0 with one", async (_, change) => {
    const same = await diff(["--base", base, "--head", write(`added-${change.name}.json`, change)]);
    expect(same.code, same.output).toBe(1);
    expect(same.output).toMatch(/FAIL: \d+ addition\(s\) without a minor version bump \(1\.0\.0 → 1\.0\.0; needs 1\.1\.0 or later\)\./);
    const raised = await diff(["--base", base, "--head", write(`added-${change.name}-1.1.0.json`, change, "1.1.0")]);
    expect(raised.code, raised.output).toBe(0);
    expect(raised.output).toContain("with the version raised to at least 1.1.0 (1.0.0 → 1.1.0)");
  });

  it("exits 0 on the same change once the major version is raised", async () => {
    const { code, output } = await diff(["--base", base, "--head", breakingMajor]);
    expect(code).toBe(0);
    expect(output).toContain("with the major version raised (1.0.0 → 2.0.0)");
  });

  it("exits 0 on patch-level changes (no version bump needed) and on none", async () => {
    const described = await diff(["--base", base, "--head", describedOnly]);
    expect(described.code, described.output).toBe(0);
    expect(described.output).toContain("0 major, 0 minor, 1 patch");
    expect(described.output).toContain("OK: no change needs a version bump (1.0.0 → 1.0.0).");
    const same = await diff(["--base", base, "--head", base]);
    expect(same).toMatchObject({ code: 0 });
    expect(same.output).toContain("0 change(s): 0 major, 0 minor, 0 patch");
  });

  it("writes JSON and Markdown", async () => {
    const json = await diff(["--base", base, "--head", breaking, "--format", "json"]);
    expect(JSON.parse(json.output)).toMatchObject({
      failed: true,
      required: "major",
      lowest: "2.0.0",
      changes: [{ rules: ["parameter-became-required"], impact: "major", operation: "GET /reports/encryption" }],
    });
    const markdown = await diff(["--base", base, "--head", breaking, "--format", "markdown"]);
    expect(markdown.output).toContain("| **major** | `parameter-became-required` |");
  });

  it.each([
    [[], "--base is required"],
    [["--base", base, "--format", "xml"], "--format must be one of text, json, markdown"],
    [["--base", base, "--colour"], "Unknown option '--colour'"],
    [["--base", "no-such-ref-or-file"], "--base no-such-ref-or-file is neither a readable file nor a git ref"],
    [["--base", base, "--head", join(dir, "missing.json")], "cannot read"],
  ])("exits 2 on bad arguments: %j", async (args, reason) => {
    const { code, output } = await diff(args);
    expect(code).toBe(2);
    expect(output.trim().split("\n")).toHaveLength(1);
    expect(output).toContain(reason);
  });

  it("exits 2 on a file that is not an OpenAPI document", async () => {
    const notJson = join(dir, "broken.json");
    writeFileSync(notJson, "{ not json");
    const notOpenApi = join(dir, "other.json");
    writeFileSync(notOpenApi, JSON.stringify({ name: "x" }));
    for (const file of [notJson, notOpenApi]) {
      const { code, output } = await diff(["--base", file, "--head", base]);
      expect(code).toBe(2);
      expect(output.trim().split("\n")).toHaveLength(1);
    }
  });

  it("bundles the base from a git ref and the head from the working tree", async () => {
    const repo = createRepo();
    try {
      expect(await diff(["--base", "HEAD"], repo.dir)).toMatchObject({ code: 0 });
      breakingEdit(repo);
      const broken = await diff(["--base", "HEAD"], repo.dir);
      expect(broken.code).toBe(1);
      expect(broken.output).toMatch(/BREAKING  (operation|path)-removed/);
      raiseMajor(repo);
      expect(await diff(["--base", "HEAD"], repo.dir)).toMatchObject({ code: 0 });
    } finally {
      repo.remove();
    }
  });

  it("takes --base vX.Y.Z from release/openapi.json when no tag holds it", async () => {
    const repo = createRepo();
    try {
      mkdirSync(join(repo.dir, "release"));
      copyFileSync(join(root, "generated/openapi.json"), join(repo.dir, "release/openapi.json"));
      const { code, output } = await diff(["--base", `v${doc.info.version}`], repo.dir);
      expect([0, 1]).toContain(code);
      expect(output).toContain(`base: release/openapi.json (packed release ${doc.info.version})`);
      expect(output).toMatch(/^(OK|FAIL): /m);
      const other = await diff(["--base", "v0.0.1"], repo.dir);
      expect(other.code).toBe(2);
      expect(other.output).toContain("--base v0.0.1 is neither a readable file nor a git ref (and release/openapi.json is not release 0.0.1)");
    } finally {
      repo.remove();
    }
  });
});
