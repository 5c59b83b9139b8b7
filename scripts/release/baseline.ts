// The previous release the working tree is compared with: the document at the highest `v*`
// tag, bundled from the whole tree at that tag (load.ts); in a clone without tags (CI
// checkouts are often shallow and tagless) the tags after `git fetch --tags`; only when no
// `v*` tag exists at all, the packed copy of the last release, release/openapi.json, with the
// reason said in every line that names the baseline. A tag that exists but cannot be read is
// an error, never a quiet fallback to the packed copy: that copy may be older than the tag.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { bundleAtRef, firstLine, packedRelease, versionOf, type Bundle } from "../diff/load.js";

export { packedRelease } from "../diff/load.js";

export type Baseline =
  | { kind: "tag"; tag: string; bundle: Bundle; notes: string[] }
  /** `why`: the reason there is no tag to read (said with the baseline, never only in a note). */
  | { kind: "packed"; file: string; why: string; bundle: Bundle; notes: string[] }
  | { kind: "unreadable"; tag: string; reason: string; notes: string[] }
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

/** The highest `v*` tag, fetching tags first when the clone has none; `why` says why there is none. */
function findTag(repo: string, notes: string[]): { tag: string } | { why: string } {
  const local = latestTag(repo);
  if (local) return { tag: local };
  let remote: string;
  try {
    remote = git(repo, "remote");
  } catch (error) {
    return { why: `no v* tag (git remote failed: ${firstLine(error)})` };
  }
  if (remote === "") return { why: "no v* tag in this clone and no remote to fetch tags from" };
  try {
    git(repo, "fetch", "--tags", "--quiet");
  } catch (error) {
    return { why: `no v* tag in this clone; git fetch --tags failed: ${firstLine(error)}` };
  }
  const fetched = latestTag(repo);
  if (!fetched) return { why: "no v* tag, also after git fetch --tags" };
  notes.push(`no v* tag in the clone; ${fetched} came with git fetch --tags`);
  return { tag: fetched };
}

/** The last release; the caller removes `bundle` when done. */
export function findBaseline(repo: string): Baseline {
  const notes: string[] = [];
  const found = findTag(repo, notes);
  if ("tag" in found) {
    try {
      return { kind: "tag", tag: found.tag, bundle: bundleAtRef(repo, found.tag, `${found.tag} (tag)`), notes };
    } catch (error) {
      return { kind: "unreadable", tag: found.tag, reason: `cannot read the document at ${found.tag}: ${firstLine(error)}`, notes };
    }
  }
  const file = join(repo, packedRelease);
  if (existsSync(file)) {
    const label = `${packedRelease} (packed release ${versionOf(file)}; ${found.why})`;
    return { kind: "packed", file: packedRelease, why: found.why, bundle: { file, label, remove: () => {} }, notes };
  }
  notes.push(`${found.why}, and no ${packedRelease}`);
  return { kind: "none", notes };
}

/** One line naming the baseline, e.g. `v1.2.0 (tag)`, and for the packed copy why no tag was read. */
export function describeBaseline(baseline: Baseline): string {
  if (baseline.kind === "none") return "none";
  if (baseline.kind === "unreadable") return `${baseline.tag} (unreadable)`;
  return baseline.bundle.label;
}
