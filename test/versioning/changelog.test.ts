// CHANGELOG.md mentions every change the diff reports since the last release; `npm run
// changelog` writes what is missing into the section of the next release. Shown failing
// and repaired on a throwaway repository with a release tag.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Change } from "../../scripts/diff/index.js";
import { checkChangelog, markerOf, missingFromChangelog, withEntries } from "../../scripts/release/changelog.js";
import { sectionOf } from "../../scripts/release/versions.js";
import { bin, root, run } from "../tooling/run.js";
import { breakingEdit, createRepo, edit, raiseMajor } from "./repo.js";

const changelog = readFileSync(join(root, "CHANGELOG.md"), "utf8");
const version: string = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;

describe("CHANGELOG.md of this repository", () => {
  it("has a section for the current version", () => {
    expect(changelog).toMatch(new RegExp(`^## \\[${version.replace(/\./g, "\\.")}\\]`, "m"));
  });

  it("mentions every change since the last release", () => {
    const check = checkChangelog(root);
    const missing = check.missing.map((c) => `${c.impact}: ${c.message} ${markerOf(c)}`);
    expect(missing, `run npm run changelog (${check.notes.join("; ")})`).toEqual([]);
  });
});

describe("the entries npm run changelog writes", () => {
  const change = (kind: Change["kind"], name: string): Change => ({
    impact: "minor",
    kind,
    rules: [],
    message: `${name} added`,
    path: `#/paths/~1${name}`,
    operation: "",
  });
  // A bullet wrapped over three lines (the second a continuation, the third a lazy one), then
  // the next category and the released section.
  const wrapped = ["- First entry, long enough to wrap", "  onto a second line", "and a lazy third. (`added` `#/x`)"];
  const text = [
    "# Changelog",
    "",
    "## [Unreleased]",
    "",
    "### Added",
    "",
    ...wrapped,
    "",
    "### Changed",
    "",
    "- Another.",
    "",
    "## [1.0.0] - 2026-11-23",
    "",
    "First release.",
    "",
  ].join("\n");

  it("go after a wrapped entry, never between its lines, and before the blank line of the next heading", () => {
    const lines = withEntries(text, [change("added", "gadgets"), change("modified", "widgets")]).split("\n");
    const added = lines.indexOf("### Added");
    expect(lines.slice(added, added + 8)).toEqual(["### Added", "", ...wrapped, "- gadgets added. (`added` `#/paths/~1gadgets`)", "", "### Changed"]);
    const changed = lines.indexOf("### Changed");
    expect(lines.slice(changed, changed + 6)).toEqual([
      "### Changed",
      "",
      "- Another.",
      "- widgets added. (`modified` `#/paths/~1widgets`)",
      "",
      "## [1.0.0] - 2026-11-23",
    ]);
  });

  it("under a category heading of their own when [Unreleased] has none: heading, blank line, entries", () => {
    const lines = withEntries(text, [change("removed", "gadgets")]).split("\n");
    const removed = lines.indexOf("### Removed");
    expect(lines.slice(removed, removed + 5)).toEqual(["### Removed", "", "- gadgets added. (`removed` `#/paths/~1gadgets`)", "", "### Added"]);
  });
});

describe("npm run changelog on a throwaway repository", { timeout: 120_000 }, () => {
  it("the check names what the changelog misses; the script adds it under [Unreleased] only, never under a released heading", async () => {
    // [1.0.1] is a heading above the tagged release (v1.0.0), as `npm run release` leaves one
    // before its tag: its notes count, but nothing new is written there.
    const released = "## [1.0.1] - 2026-11-24\n\nA patch.\n";
    const repo = createRepo({ "CHANGELOG.md": `# Changelog\n\n${released}\n## [1.0.0] - 2026-11-23\n\nFirst release.\n` });
    try {
      repo.git("tag", "v1.0.0");
      breakingEdit(repo);
      edit(repo.dir, "openapi/components/schemas/Webhook.yaml", /^properties:\n/m, "properties:\n  note:\n    type: string\n");
      raiseMajor(repo);

      const before = checkChangelog(repo.dir);
      expect(new Set(before.missing.map((c) => `${c.impact} ${c.rules.join(",") || c.kind}`))).toEqual(new Set(["major path-removed", "minor added"]));

      const script = await run(bin("tsx"), [join(root, "scripts/release/changelog.ts"), repo.dir]);
      expect(script.output).toContain(`${before.missing.length} entries added to ## [Unreleased] of CHANGELOG.md`);
      expect(checkChangelog(repo.dir).missing).toEqual([]);

      const text = readFileSync(join(repo.dir, "CHANGELOG.md"), "utf8");
      const section = sectionOf(text, "[Unreleased]");
      expect(section).toMatch(/### Added\n\n- GET \/webhooks\S*: responses › 200 › .* › properties › note added\. \(`added` `#\/paths\/\S+\/properties\/note`\)/);
      expect(section).toMatch(/### Removed\n\n- \*\*Breaking:\*\* \/\S+: Path `\/\S+` was removed\. \(`path-removed` `#\/paths\/\S+`\)/);
      expect(text).toContain(released);
      expect(text.indexOf("## [Unreleased]")).toBeLessThan(text.indexOf("## [1.0.1]"));

      // Entries under the heading a release gives them, above the tagged release, still count;
      // under a heading at or below it they are an older release's notes.
      expect(missingFromChangelog(before.missing, text.replace("## [Unreleased]", "## [2.0.0] - 2026-11-25"), "1.0.0")).toEqual([]);
      expect(missingFromChangelog(before.missing, text.replace("## [Unreleased]", "## [0.9.0] - 2026-11-01"), "1.0.0")).toHaveLength(2);

      // Reworded by hand, the entry still counts; without its marker it does not.
      writeFileSync(join(repo.dir, "CHANGELOG.md"), text.replace(/^(- \*\*Breaking:\*\*) [^(]*/m, "$1 The first operation is gone; use the others. "));
      expect(checkChangelog(repo.dir).missing).toEqual([]);
      writeFileSync(join(repo.dir, "CHANGELOG.md"), text.replace(/^- \*\*Breaking:\*\*.*$/m, "- The first operation is gone."));
      expect(checkChangelog(repo.dir).missing.map((c) => c.rules)).toEqual([["path-removed"]]);
    } finally {
      repo.remove();
    }
  });
});
