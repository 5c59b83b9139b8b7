// `npm run diff`: its exit codes (1 breaking without a major bump, 0 otherwise, 2 bad
// arguments or unreadable documents, with one line saying why) and its three formats, on
// files and on a git ref of a throwaway repository.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { doc } from "../support/document.js";
import { bin, root, run } from "../tooling/run.js";
import { breakingEdit, createRepo, raiseMajor } from "./repo.js";

const dir = mkdtempSync(join(tmpdir(), "contract-diff-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const diff = (args: string[], cwd = root) => run(bin("tsx"), [join(root, "scripts/diff/main.ts"), ...args], cwd);

function write(name: string, change: (d: typeof doc) => void = () => {}): string {
  const copy = structuredClone(doc);
  copy.info.version = "1.0.0"; // whatever the document's version is today
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
const additive = write("additive.json", (d) => d.servers.push({ url: "https://eu.api.authsvc.example/v1" }));

describe("npm run diff", { timeout: 120_000 }, () => {
  it("exits 1 on a breaking change without a major bump, naming the rule and both pointers", async () => {
    const { code, output } = await diff(["--base", base, "--head", breaking]);
    expect(code).toBe(1);
    expect(output).toContain("BREAKING  request-parameter-became-required");
    expect(output).toContain("operations: GET /reports/encryption");
    expect(output).toContain("base: /components/parameters/ReportStatus");
    expect(output).toContain("head: /components/parameters/ReportStatus/required");
    expect(output).toContain("FAIL: 1 breaking change(s) without a major version bump (1.0.0 → 1.0.0).");
  });

  it("exits 0 on the same change once the major version is raised", async () => {
    const { code, output } = await diff(["--base", base, "--head", breakingMajor]);
    expect(code).toBe(0);
    expect(output).toContain("with the major version raised (1.0.0 → 2.0.0)");
  });

  it("exits 0 on non-breaking changes and on none", async () => {
    expect((await diff(["--base", base, "--head", additive])).code).toBe(0);
    const same = await diff(["--base", base, "--head", base]);
    expect(same).toMatchObject({ code: 0 });
    expect(same.output).toContain("0 change(s), 0 breaking");
  });

  it("writes JSON and Markdown", async () => {
    const json = await diff(["--base", base, "--head", breaking, "--format", "json"]);
    expect(JSON.parse(json.output)).toMatchObject({
      failed: true,
      changes: [{ rule: "request-parameter-became-required", breaking: true, operations: ["GET /reports/encryption"] }],
    });
    const markdown = await diff(["--base", base, "--head", breaking, "--format", "markdown"]);
    expect(markdown.output).toContain("| **breaking** | `request-parameter-became-required` |");
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
      expect(broken.output).toContain("BREAKING  operation-removed");
      raiseMajor(repo);
      expect(await diff(["--base", "HEAD"], repo.dir)).toMatchObject({ code: 0 });
    } finally {
      repo.remove();
    }
  });
});
