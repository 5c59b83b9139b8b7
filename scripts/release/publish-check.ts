// What `npm publish` of any of the packages runs first (their `prepublishOnly`, before
// `prepack` builds anything), and `npm run publish-check` by hand: the release refuses unless
//  - every place that states the version says the same version (versions.ts),
//  - the changelog's top release heading is that version and nothing waits under
//    [Unreleased] (it would ship without release notes),
//  - a release whose notes mark a change **Breaking** raises the major version,
//  - the breaking-change gate passes (`npm run gate`: the document against the last release;
//    it also wants at least a minor bump for an addition).
// Exit code 1 with one line per reason, 0 when the release may go. docs/publishing.md
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { releasedVersions, releaseVersionProblem, sectionOf, statedVersions, unreleasedEntries } from "./versions.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const major = (version: string) => Number(version.split(".")[0]);

/** The reasons the repository at `repo` must not be published (none: it may). */
export function refusals(repo: string, runGate = true): string[] {
  const reasons: string[] = [];
  const stated = statedVersions(repo);
  const version = stated["package.json"];
  if (!version) return ["package.json states no version"];
  const problem = releaseVersionProblem(version);
  if (problem) return [`package.json version ${problem}`];
  const disagree = Object.entries(stated).filter(([, stated]) => stated !== version);
  for (const [place, stated] of disagree)
    reasons.push(`${place} says ${stated ?? "nothing"}, package.json says ${version} (npm run release -- <version> writes them all)`);

  const changelog = readFileSync(join(repo, "CHANGELOG.md"), "utf8");
  if (unreleasedEntries(changelog) !== "")
    reasons.push("CHANGELOG.md has entries under [Unreleased]: they would ship outside this release's notes (npm run release -- <version> moves them)");
  const previous = releasedVersions(changelog).find((released) => released !== version);
  if (previous && /\*\*Breaking/.test(sectionOf(changelog, `[${version}]`)) && major(version) <= major(previous)) {
    reasons.push(`CHANGELOG.md [${version}] lists a breaking change but ${version} does not raise the major version of ${previous}`);
  }

  if (runGate && reasons.length === 0) {
    const gate = spawnSync(npm, ["run", "-s", "gate"], { cwd: repo, encoding: "utf8" });
    if (gate.status !== 0) {
      process.stdout.write(gate.stdout);
      process.stderr.write(gate.stderr);
      reasons.push(`the breaking-change gate refused (npm run gate exited ${gate.status})`);
    }
  }
  return reasons;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const repo = fileURLToPath(new URL("../../", import.meta.url));
  const reasons = refusals(repo);
  for (const reason of reasons) console.error(`publish-check: refused: ${reason}`);
  if (reasons.length === 0) console.log(`publish-check: ${statedVersions(repo)["package.json"]} may be published`);
  process.exitCode = reasons.length === 0 ? 0 : 1;
}
