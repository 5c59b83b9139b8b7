// The previous release the working tree is compared with: the document at the latest `v*`
// tag; in a clone without tags (CI checkouts are often shallow and tagless) the tags after
// `git fetch --tags`; failing that the packed copy of the last release, release/openapi.json.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Node } from "../diff/document.js";
import { bundleAtRef, readDocumentFile } from "../diff/load.js";

export type Baseline =
  | { kind: "tag"; tag: string; document: Node; notes: string[] }
  | { kind: "packed"; file: string; document: Node; notes: string[] }
  | { kind: "none"; notes: string[] };

/** Where the packed document of the last release lives in the repository. */
export const packedRelease = "release/openapi.json";

const git = (repo: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd: repo, stdio: "pipe", timeout: 60_000 }).toString().trim();

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
      return { kind: "tag", tag, document: bundleAtRef(repo, tag), notes };
    } catch (error) {
      notes.push(`cannot read the document at ${tag}: ${firstLine(error)}`);
    }
  }
  const file = join(repo, packedRelease);
  if (existsSync(file)) return { kind: "packed", file: packedRelease, document: readDocumentFile(file), notes };
  notes.push(`no ${packedRelease}`);
  return { kind: "none", notes };
}

/** One line naming the baseline, e.g. `v1.2.0 (tag)`. */
export function describeBaseline(baseline: Baseline): string {
  if (baseline.kind === "tag") return `${baseline.tag} (tag)`;
  if (baseline.kind === "packed") return `${baseline.file} (packed release ${baseline.document.info?.version})`;
  return "none";
}

function firstLine(error: unknown): string {
  const e = error as { stderr?: Buffer; message?: string };
  return (e.stderr?.toString().trim() || e.message || String(error)).split("\n")[0]!;
}
