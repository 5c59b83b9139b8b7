// CHANGELOG.md (Keep a Changelog): `npm run changelog` adds to the section of the next
// release one entry for each change since the last release that a client can notice (major
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

/** `[2.0.0]` when the version was raised since the release, else `[Unreleased]`. */
export function sectionTitle(diff: DiffResult): string {
  return newer(diff.headVersion, diff.baseVersion) ? `[${diff.headVersion}]` : "[Unreleased]";
}

/** The text of the `## <title>` section ("" when absent). */
export function sectionOf(text: string, title: string): string {
  const start = text.split("\n").findIndex((line) => line.startsWith(`## ${title}`));
  if (start < 0) return "";
  const lines = text.split("\n").slice(start + 1);
  const end = lines.findIndex((line) => line.startsWith("## "));
  return lines.slice(0, end < 0 ? undefined : end).join("\n");
}

/** The changes the section titled `title` does not mention. */
export function missingFromChangelog(changes: Change[], text: string, title: string): Change[] {
  const section = sectionOf(text, title);
  return noticeable(changes).filter((change) => !section.includes(markerOf(change)));
}

/** The changelog with the missing entries added to the section `title` (created when absent). */
export function withEntries(text: string, title: string, missing: Change[], date: string): string {
  if (missing.length === 0) return text;
  const lines = text.split("\n");
  let start = lines.findIndex((line) => line.startsWith(`## ${title}`));
  if (start < 0) {
    const first = lines.findIndex((line) => line.startsWith("## "));
    start = first < 0 ? lines.length : first;
    lines.splice(start, 0, `## ${title}${title === "[Unreleased]" ? "" : ` - ${date}`}`, "");
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
    let at = start + heading + 2;
    while (at < lines.length && lines[at]!.startsWith("- ")) at++;
    lines.splice(at, 0, ...entries);
  }
  return lines.join("\n");
}

function nextSection(lines: string[], start: number): number {
  const next = lines.findIndex((line, i) => i > start && line.startsWith("## "));
  return next < 0 ? lines.length : next;
}

export interface ChangelogCheck {
  /** Undefined when there is no release to compare with. */
  diff?: DiffResult;
  title?: string;
  missing: Change[];
  notes: string[];
}

/** What CHANGELOG.md lacks against the diff since the last release. */
export function checkChangelog(repo: string): ChangelogCheck {
  const baseline = findBaseline(repo);
  if (baseline.kind === "none") return { missing: [], notes: [...baseline.notes, "no release yet: nothing to compare with"] };
  const head = bundleSource(repo);
  try {
    const diff = diffFiles(baseline.bundle.file, head.file);
    const title = sectionTitle(diff);
    const file = join(repo, changelogFile);
    const text = existsSync(file) ? readFileSync(file, "utf8") : "";
    return { diff, title, missing: missingFromChangelog(diff.changes, text, title), notes: [...baseline.notes, `since ${describeBaseline(baseline)}`] };
  } finally {
    head.remove();
    baseline.bundle.remove();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const repo = process.argv[2] ?? process.cwd();
  const check = checkChangelog(repo);
  for (const note of check.notes) console.log(`changelog: ${note}`);
  if (check.title && check.missing.length > 0) {
    const file = join(repo, changelogFile);
    const text = existsSync(file) ? readFileSync(file, "utf8") : "# Changelog\n\n";
    writeFileSync(file, withEntries(text, check.title, check.missing, new Date().toISOString().slice(0, 10)));
    console.log(`changelog: ${check.missing.length} entr${check.missing.length === 1 ? "y" : "ies"} added to ## ${check.title} of ${changelogFile}`);
  } else console.log("changelog: nothing to add");
}
