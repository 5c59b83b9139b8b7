// The previous release the working tree is compared with: the document at the latest `v*`
// tag; in a clone without tags (CI checkouts are often shallow and tagless) the tags after
// `git fetch --tags`; failing that the packed copy of the last release, release/openapi.json.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { bundleAtRef, firstLine, packedRelease, versionOf, type Bundle } from "../diff/load.js";

export { packedRelease } from "../diff/load.js";

export type Baseline =
  | { kind: "tag"; tag: string; bundle: Bundle; notes: string[] }
  | { kind: "packed"; file: string; bundle: Bundle; notes: string[] }
  | { kind: "none"; notes: string[] };

const git = (repo: string, ...args: string[]): string => execFileSync("git", args, { cwd: repo, stdio: "pipe", timeout: 60_000 }).toString().trim();

/** The highest `vX.Y.Z` tag of the repository, if any. */
export function latestTag(repo: string): string | undefined {
  try {
    return git(repo, "tag", "--list", "v*", "--sort=-v:refname")
      .split("\n")
      .find((tag) => /^v\d+\.\d+\.\d+$/.test(tag));
  } catch {
    return undefined;
  }
}

/** The last release; the caller removes `bundle` when done. */
export function findBaseline(repo: string): Baseline {
  const notes: string[] = [];
  let tag = latestTag(repo);
  if (!tag) {
    try {
      if (git(repo, "remote") !== "") {
        git(repo, "fetch", "--tags", "--quiet");
        tag = latestTag(repo);
        notes.push(tag ? `no v* tag in the clone; ${tag} came with git fetch --tags` : "no v* tag, also after git fetch --tags");
      } else notes.push("no v* tag and no remote to fetch tags from");
    } catch (error) {
      notes.push(`no v* tag; git fetch --tags failed: ${firstLine(error)}`);
    }
  }
  if (tag) {
    try {
      return { kind: "tag", tag, bundle: bundleAtRef(repo, tag, `${tag} (tag)`), notes };
    } catch (error) {
      notes.push(`cannot read the document at ${tag}: ${firstLine(error)}`);
    }
  }
  const file = join(repo, packedRelease);
  if (existsSync(file)) {
    const label = `${packedRelease} (packed release ${versionOf(file)})`;
    return { kind: "packed", file: packedRelease, bundle: { file, label, remove: () => {} }, notes };
  }
  notes.push(`no ${packedRelease}`);
  return { kind: "none", notes };
}

/** One line naming the baseline, e.g. `v1.2.0 (tag)`. */
export function describeBaseline(baseline: Baseline): string {
  return baseline.kind === "none" ? "none" : baseline.bundle.label;
}
