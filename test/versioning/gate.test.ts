// The release gate: this repository's working tree against its last release; a breaking
// change needs a major bump and an addition a minor one; and each way of finding that
// release on throwaway repositories: a local tag, a tag only after `git fetch --tags` (a
// shallow, tagless CI clone), the packed release/openapi.json (said in the result line),
// none; and a tag it cannot read, which fails rather than falling back.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { copyFileSync } from "node:fs";
import { bundleSource } from "../../scripts/diff/load.js";
import { runGate } from "../../scripts/release/gate.js";
import { bin, root, run } from "../tooling/run.js";
import { addOperation, breakingEdit, createRepo, raiseMajor, raiseMinor, type Repo } from "./repo.js";

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((remove) => remove()));
const repo = (): Repo => {
  const created = createRepo();
  cleanup.push(created.remove);
  return created;
};

describe("the gate on this repository", () => {
  it("passes: the version covers every change since the last release, or there is no release yet", () => {
    const result = runGate(root);
    expect(result.report).toMatch(/no release yet|OK: /);
    expect(result.passed, result.report).toBe(true);
  });
});

describe("the gate on a throwaway repository", { timeout: 120_000 }, () => {
  it("with a v* tag: fails on a breaking change, passes once the major version is raised", async () => {
    const r = repo();
    r.git("tag", "v1.0.0");
    breakingEdit(r);
    const failed = runGate(r.dir);
    expect(failed.passed).toBe(false);
    expect(failed.report).toMatch(/BREAKING  (path|operation)-removed\n  (Path|Operation) `[^`]+` was removed/);
    expect(failed.report).toMatch(/FAIL: \d+ breaking change\(s\) without a major version bump \((\S+) → \1; needs \d+\.0\.0 or later\)\./);
    const cli = await run(bin("tsx"), [join(root, "scripts/release/gate.ts"), r.dir]);
    expect(cli.code).toBe(1);
    const { from, to } = raiseMajor(r);
    const raised = runGate(r.dir);
    expect(raised.passed, raised.report).toBe(true);
    expect(raised.report).toContain(`with the major version raised (${from} → ${to})`);
  });

  it("with a v* tag: fails on an added operation until the minor version is raised", async () => {
    const r = repo();
    r.git("tag", "v1.0.0");
    addOperation(r);
    const failed = runGate(r.dir);
    expect(failed.passed, failed.report).toBe(false);
    expect(failed.report).toMatch(/minor  added\n  .*\n  operation: DELETE \/\S+/);
    expect(failed.report).toMatch(/FAIL: \d+ addition\(s\) without a minor version bump \((\S+) → \1; needs \d+\.\d+\.0 or later\)\./);
    expect(failed.report).toContain("gate: raise at least the minor version");
    const cli = await run(bin("tsx"), [join(root, "scripts/release/gate.ts"), r.dir]);
    expect(cli.code).toBe(1);
    const { to } = raiseMinor(r);
    const raised = runGate(r.dir);
    expect(raised.passed, raised.report).toBe(true);
    expect(raised.report).toContain(`with the version raised to at least ${to}`);
  });

  it("takes the highest version tag, not the newest name", () => {
    const r = repo();
    r.git("tag", "v1.0.0");
    raiseMajor(r);
    r.git("commit", "-qam", "next major");
    r.git("tag", "v2.0.0");
    r.git("tag", "v10.0.0-rc.1");
    expect(runGate(r.dir).baseline).toMatchObject({ kind: "tag", tag: "v2.0.0" });
  });

  it("in a shallow clone without tags: fetches them", () => {
    const origin = repo();
    origin.git("tag", "v1.0.0");
    const dir = mkdtempSync(join(tmpdir(), "contract-clone-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    origin.git("clone", "-q", "--depth", "1", "--no-tags", `file://${origin.dir}`, join(dir, "clone"));
    const clone = { dir: join(dir, "clone") };
    breakingEdit(clone);
    const result = runGate(clone.dir);
    expect(result.baseline).toMatchObject({ kind: "tag", tag: "v1.0.0" });
    expect(result.report).toContain("came with git fetch --tags");
    expect(result.passed).toBe(false);
  });

  it("without tags and an unreachable remote: falls back to release/openapi.json", () => {
    const r = repo();
    mkdirSync(join(r.dir, "release"));
    const bundle = bundleSource(r.dir);
    copyFileSync(bundle.file, join(r.dir, "release/openapi.json"));
    bundle.remove();
    r.git("remote", "add", "origin", join(r.dir, "no-such-remote"));
    breakingEdit(r);
    const result = runGate(r.dir);
    expect(result.baseline).toMatchObject({ kind: "packed", file: "release/openapi.json" });
    // The result line, not only a note above it, says the baseline is the fallback, and why.
    expect(result.report.split("\n").at(-1)).toMatch(
      /^gate: \d+ change\(s\) since release\/openapi\.json \(packed release \S+; no v\* tag in this clone; git fetch --tags failed: .+\)\. FAIL: /,
    );
    expect(result.passed).toBe(false);
  });

  it("with a v* tag it cannot read: fails, naming it, and never falls back to release/openapi.json", () => {
    const r = repo();
    mkdirSync(join(r.dir, "release"));
    const bundle = bundleSource(r.dir);
    copyFileSync(bundle.file, join(r.dir, "release/openapi.json"));
    bundle.remove();
    writeFileSync(join(r.dir, "openapi/openapi.yaml"), "openapi: 3.1.0\ninfo: {title: broken, version: 1.0.0}\npaths:\n  /x:\n    $ref: ./paths/missing.yaml\n");
    r.git("add", "-A");
    r.git("commit", "-qm", "a broken release");
    r.git("tag", "v1.0.0");
    r.git("checkout", "-q", "HEAD~1", "--", "openapi/openapi.yaml");
    const result = runGate(r.dir);
    expect(result.baseline).toMatchObject({ kind: "unreadable", tag: "v1.0.0" });
    expect(result.report).toMatch(/^gate: FAIL: cannot read the document at v1\.0\.0: /m);
    expect(result.report).not.toContain("release/openapi.json");
    expect(result.passed).toBe(false);
  });

  it("with no release at all: says so and passes", () => {
    const r = repo();
    breakingEdit(r);
    const result = runGate(r.dir);
    expect(result.baseline.kind).toBe("none");
    expect(result.report).toContain("no release yet");
    expect(result.passed).toBe(true);
  });
});
