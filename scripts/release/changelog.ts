// CHANGELOG.md (Keep a Changelog): `npm run changelog` adds under [Unreleased] (never under
// a released heading) one entry for each change since the last release that a client can notice (major
// or minor: patch-level edits of descriptions and example values are left to the prose),
// and test/versioning/changelog.test.ts fails while one is missing. An entry ends with a
// marker naming its rule and where it is, so the wording before it can be edited by hand.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { diffFiles, type Change, type DiffResult } from "../diff/index.js";
import { bundleSource } from "../diff/load.js";
import { ownRules } from "../diff/policy.js";
import { describeBaseline, findBaseline } from "./baseline.js";
import { sectionOf } from "./versions.js";

export const changelogFile = "CHANGELOG.md";

const categories = ["Added", "Changed", "Deprecated", "Removed", "Security"] as const;
type Category = (typeof categories)[number];

function categoryOf(change: Change): Category {
  if (change.rules.some((rule) => rule.startsWith("security-"))) return "Security";
  if (change.rules.includes(ownRules.deprecation)) return "Deprecated";
  if (change.kind === "removed") return "Removed";
  if (change.kind === "added") return "Added";
  return "Changed";
}

/** The changes an entry is written for: what a client can notice. */
export const noticeable = (changes: Change[]): Change[] => changes.filter((c) => c.impact !== "patch");

/** The part of an entry the check looks for: the rule (or kind) and where the change is. */
export const markerOf = (change: Change): string =>
  `(\`${change.rules.length > 0 ? change.rules.join(",") : change.kind}\` \`${change.path}${change.property ? ` ${change.property}` : ""}\`)`;

function entryOf(change: Change): string {
  const where = change.operation ? `${change.operation}: ` : "";
  return `- ${change.impact === "major" ? "**Breaking:** " : ""}${where}${change.message}. ${markerOf(change)}`;
}

const newer = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true }) > 0;

/** Where `npm run changelog` writes: always the next release's notes, never a released heading. */
export const unreleased = "[Unreleased]";

/**
 * The notes written since the release `baseVersion`: [Unreleased] and every `## [X.Y.Z]`
 * above it (`npm run release` moves [Unreleased] under the new version before the tag).
 */
export function notesSince(text: string, baseVersion: string): string {
  const titles = [...text.matchAll(/^## (\[[^\]\n]+\])/gm)].map((match) => match[1]!);
  return titles
    .filter((title) => title === unreleased || newer(title.slice(1, -1), baseVersion))
    .map((title) => sectionOf(text, title))
    .join("\n");
}

/** The changes the notes since the release `baseVersion` do not mention. */
export function missingFromChangelog(changes: Change[], text: string, baseVersion: string): Change[] {
  const notes = notesSince(text, baseVersion);
  return noticeable(changes).filter((change) => !notes.includes(markerOf(change)));
}

/** The changelog with the missing entries added under [Unreleased] (created above the releases when absent). */
export function withEntries(text: string, missing: Change[]): string {
  if (missing.length === 0) return text;
  const lines = text.split("\n");
  let start = lines.findIndex((line) => line.startsWith(`## ${unreleased}`));
  if (start < 0) {
    const first = lines.findIndex((line) => line.startsWith("## "));
    start = first < 0 ? lines.length : first;
    lines.splice(start, 0, `## ${unreleased}`, "");
  }
  for (const category of [...categories].reverse()) {
    const entries = missing.filter((c) => categoryOf(c) === category).map(entryOf);
    if (entries.length === 0) continue;
    const end = nextSection(lines, start);
    let heading = lines.slice(start, end).indexOf(`### ${category}`);
    if (heading < 0) {
      lines.splice(start + 2, 0, `### ${category}`, "", "");
      heading = 2;
    }
    // After the category's last line, whatever it is (a bullet's wrapped continuation, a
    // sub-list), before the blank lines that precede the next heading: never inside an entry.
    let at = nextHeading(lines, start + heading);
    while (at > start + heading + 2 && lines[at - 1]!.trim() === "") at--;
    lines.splice(at, 0, ...entries);
  }
  return lines.join("\n");
}

/** The line of the first heading (any level) after `start`, or the end. */
function nextHeading(lines: string[], start: number): number {
  const next = lines.findIndex((line, i) => i > start && /^#{1,6} /.test(line));
  return next < 0 ? lines.length : next;
}

function nextSection(lines: string[], start: number): number {
  const next = lines.findIndex((line, i) => i > start && line.startsWith("## "));
  return next < 0 ? lines.length : next;
}

export interface ChangelogCheck {
  /** Undefined when there is no release to compare with. */
  diff?: DiffResult;
  missing: Change[];
  notes: string[];
}

/** What CHANGELOG.md lacks against the diff since the last release. */
export function checkChangelog(repo: string): ChangelogCheck {
  const baseline = findBaseline(repo);
  if (baseline.kind === "none") return { missing: [], notes: [...baseline.notes, "no release yet: nothing to compare with"] };
  if (baseline.kind === "unreadable") throw new Error(baseline.reason);
  const head = bundleSource(repo);
  try {
    const diff = diffFiles(baseline.bundle.file, head.file);
    const file = join(repo, changelogFile);
    const text = existsSync(file) ? readFileSync(file, "utf8") : "";
    return { diff, missing: missingFromChangelog(diff.changes, text, diff.baseVersion), notes: [...baseline.notes, `since ${describeBaseline(baseline)}`] };
  } finally {
    head.remove();
    baseline.bundle.remove();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const repo = process.argv[2] ?? process.cwd();
  const check = checkChangelog(repo);
  for (const note of check.notes) console.log(`changelog: ${note}`);
  if (check.missing.length > 0) {
    const file = join(repo, changelogFile);
    const text = existsSync(file) ? readFileSync(file, "utf8") : "# Changelog\n\n";
    writeFileSync(file, withEntries(text, check.missing));
    console.log(`changelog: ${check.missing.length} entr${check.missing.length === 1 ? "y" : "ies"} added to ## ${unreleased} of ${changelogFile}`);
  } else console.log("changelog: nothing to add");
}
