// The releases that changed each operation, from the project's own contract diff
// (scripts/diff/, `redocly diff` under the versioning policy) over the release history: the
// document of each release named in CHANGELOG.md (the `v<version>` tag's tree, bundled, or
// without that tag the packed copy release/openapi.json as committed at that release, as the
// release gate falls back to it), each compared with the release before it, and the last
// release with the document the page is built from ("Unreleased"). Only what a client can
// notice is listed (major and minor changes, as the changelog lists them). A diff of two
// given documents never changes, so each is kept in node_modules/.cache under the hash of
// the pair: a build after the first diffs only the unreleased changes.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Change, diffFiles } from "../diff/index.js";
import { bundleAtRef, packedRelease } from "../diff/load.js";
import { noticeable } from "../release/changelog.js";
import { operationEntries } from "../../server/document/walk.js";

export interface Release {
  version: string;
  /** The date of its CHANGELOG.md heading. */
  date: string;
  document: string;
}

export interface OperationHistory {
  /** The first release that has the operation; undefined when it is newer than every release. */
  added?: string;
  /** Releases that changed it, newest first (`Unreleased` for changes since the last release). */
  changes: { version: string; date: string; changes: Pick<Change, "impact" | "message">[] }[];
}

export interface History {
  releases: { version: string; date: string }[];
  /** By `METHOD /path`. */
  operations: Record<string, OperationHistory>;
  /** Why some or all of the history is missing (no git history, a release without its document). */
  notes: string[];
}

const git = (repo: string, ...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe", maxBuffer: 64 * 1024 * 1024 }).toString();

/** CHANGELOG.md's released versions with their dates, oldest first. */
export function changelogReleases(changelog: string): { version: string; date: string }[] {
  return [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\](?: - (\S+))?/gm)].map((m) => ({ version: m[1]!, date: m[2] ?? "" })).reverse();
}

/** The document of each release, as text: the tag's tree bundled, or the packed copy committed with the release. */
function releaseDocuments(repo: string, versions: { version: string; date: string }[], notes: string[]): Release[] {
  let packed: { commit: string; version: string }[] = [];
  try {
    packed = git(repo, "log", "--format=%H", "--", packedRelease)
      .split("\n")
      .filter(Boolean)
      .map((commit) => ({ commit, version: JSON.parse(git(repo, "show", `${commit}:${packedRelease}`)).info.version as string }));
  } catch (error) {
    notes.push(`no git history of ${packedRelease}: ${(error as Error).message.split("\n")[0]}`);
  }
  const tags = new Set(
    (() => {
      try {
        return git(repo, "tag", "--list", "v*").split("\n");
      } catch {
        return [];
      }
    })(),
  );
  return versions.flatMap(({ version, date }) => {
    if (tags.has(`v${version}`)) {
      const bundle = bundleAtRef(repo, `v${version}`);
      try {
        return [{ version, date, document: readFileSync(bundle.file, "utf8") }];
      } finally {
        bundle.remove();
      }
    }
    // git log lists the newest commit first: the last state of the packed copy at that version.
    const commit = packed.find((p) => p.version === version)?.commit;
    if (commit) return [{ version, date, document: git(repo, "show", `${commit}:${packedRelease}`) }];
    notes.push(`release ${version}: no tag v${version} and no committed ${packedRelease} at that version`);
    return [];
  });
}

/** `diffFiles` of two documents given as text, kept under the hash of the pair. */
function cachedDiff(cacheDir: string, base: string, head: string): Pick<Change, "impact" | "message" | "operation">[] {
  const key = createHash("sha256").update(base).update("\0").update(head).digest("hex");
  const file = join(cacheDir, `${key}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
  const dir = mkdtempSync(join(tmpdir(), "docs-history-"));
  try {
    writeFileSync(join(dir, "base.json"), base);
    writeFileSync(join(dir, "head.json"), head);
    const changes = noticeable(diffFiles(join(dir, "base.json"), join(dir, "head.json")).changes).map(({ impact, message, operation }) => ({
      impact,
      message,
      operation,
    }));
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(file, JSON.stringify(changes));
    return changes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const operationKeys = (document: string): string[] => operationEntries(JSON.parse(document)).map(({ method, path }) => `${method.toUpperCase()} ${path}`);

/** The history of every operation of `current` (the document the page renders). */
export function historyOf(repo: string, current: string, changelog: string, cacheDir = join(repo, "node_modules/.cache/docs-history")): History {
  const notes: string[] = [];
  const versions = changelogReleases(changelog);
  const releases = releaseDocuments(repo, versions, notes);
  const operations: Record<string, OperationHistory> = {};
  for (const key of operationKeys(current)) operations[key] = { changes: [] };
  const steps = [...releases.map((r) => ({ version: r.version, date: r.date, document: r.document })), { version: "Unreleased", date: "", document: current }];
  const first = releases[0];
  if (first) for (const key of operationKeys(first.document)) if (operations[key]) operations[key].added = first.version;
  for (let i = 1; i < steps.length; i++) {
    const { version, date } = steps[i]!;
    const changes = cachedDiff(cacheDir, steps[i - 1]!.document, steps[i]!.document);
    const present = new Set(operationKeys(steps[i]!.document));
    for (const [key, entry] of Object.entries(operations)) {
      if (entry.added === undefined && present.has(key) && version !== "Unreleased") entry.added = version;
      const own = changes.filter((change) => change.operation === key).map(({ impact, message }) => ({ impact, message }));
      if (own.length) entry.changes.unshift({ version, date, changes: own });
    }
  }
  return { releases: releases.map(({ version, date }) => ({ version, date })), operations, notes };
}
