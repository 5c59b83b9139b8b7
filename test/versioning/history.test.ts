// The diff and the gate on this repository's own history, in a throwaway clone (tags are
// made there, never in the repository): a tag on the commit that released 1.0.0 and a tag
// on HEAD are each bundled from the whole tree at the tag, with that tree's bundle step
// (scripts/own-error-examples.ts imports server/, which a copy of openapi/ alone lacked:
// `--base HEAD` exited 2). A shallow clone has no history to read: skipped on a
// contributor's machine, a failure under CI (test/support/real-parts.ts).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGate } from "../../scripts/release/gate.js";
import { realPart } from "../support/real-parts.js";
import { bin, root, run } from "../tooling/run.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, stdio: "pipe", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } })
    .toString()
    .trim();

const shallow = git(root, "rev-parse", "--is-shallow-repository") === "true";
const noHistory = realPart(shallow ? { part: "Git history", reason: "this clone is shallow (git fetch --unshallow)" } : undefined);

const scratch = mkdtempSync(join(tmpdir(), "contract-history-"));
const clone = join(scratch, "repo");
/** The commit that released 1.0.0: the one that added its changelog heading. */
let released: string;
let headVersion: string;

beforeAll(() => {
  if (noHistory !== undefined) return;
  git(root, "clone", "-q", "--no-tags", root, clone);
  // The head side bundles the clone's working tree with its own scripts: this checkout's packages.
  symlinkSync(join(root, "node_modules"), join(clone, "node_modules"), "dir");
  released = git(clone, "log", "--format=%H", "-S## [1.0.0]", "--", "CHANGELOG.md").split("\n").at(-1)!;
  expect(released).toMatch(/^[0-9a-f]{40}$/);
  git(clone, "tag", "v1.0.0", released);
  headVersion = JSON.parse(readFileSync(join(clone, "package.json"), "utf8")).version;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const diff = (...args: string[]) => run(bin("tsx"), [join(root, "scripts/diff/main.ts"), ...args], clone);

describe.skipIf(noHistory !== undefined)("the contract tools on this repository's history", { timeout: 180_000 }, () => {
  it("npm run diff -- --base v1.0.0 (the 1.0.0 release): its breaking changes, covered by the major version since", async () => {
    const { code, output } = await diff("--base", "v1.0.0");
    expect(output).toContain("base: v1.0.0\nhead: openapi/ (working tree)");
    expect(output).toMatch(
      new RegExp(`^\\d+ change\\(s\\): [1-9]\\d* major, \\d+ minor, \\d+ patch, between 1\\.0\\.0 \\(base\\) and ${headVersion.replace(/\./g, "\\.")} \\(head\\)$`, "m"),
    );
    expect(output).toMatch(/^OK: \d+ breaking change\(s\) with the major version raised \(1\.0\.0 → /m);
    expect(code, output).toBe(0);
  });

  it("npm run diff -- --base HEAD: no change", async () => {
    const { code, output } = await diff("--base", "HEAD");
    expect(output).toContain("0 change(s): 0 major, 0 minor, 0 patch");
    expect(code, output).toBe(0);
  });

  it("the gate reads the highest tag, v1.0.0, then a tag on HEAD, and names it in its result line", () => {
    const older = runGate(clone);
    expect(older.baseline).toMatchObject({ kind: "tag", tag: "v1.0.0" });
    expect(older.report.split("\n").at(-1)).toMatch(/^gate: \d+ change\(s\) since v1\.0\.0 \(tag\)\. OK: \d+ breaking change\(s\) with the major version raised/);
    git(clone, "tag", `v${headVersion}`);
    const current = runGate(clone);
    expect(current.report).toBe(`gate: 0 change(s) since v${headVersion} (tag). OK: no change needs a version bump (${headVersion} → ${headVersion}).`);
    expect(current.passed).toBe(true);
  });
});
