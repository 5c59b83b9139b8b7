// Where the one release version is written: the root and workspace package.json files (and
// the workspaces' exact peer on the contract), package-lock.json, the document's
// info.version (source and bundle) and the top heading of CHANGELOG.md. Read by the publish
// check, written by the release command.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";

export const workspaces = ["contract", "mock", "server", "conformance"] as const;
export const contractName = "@authsvc/app-api-contract";
export const documentSource = "openapi/openapi.yaml";
export const documentBundle = "generated/openapi.json";

export const readJson = (repo: string, file: string) => JSON.parse(readFileSync(join(repo, file), "utf8"));
export const manifestOf = (name: string) => `packages/${name}/package.json`;

/**
 * Why `version` cannot be a release's version, or undefined when it can: a semantic version
 * as npm reads it (`semver.valid`, which refuses `02.0.1`, where a `\d+.\d+.\d+` pattern
 * accepts it), written in its canonical form (not `v2.0.1` or `=2.0.1`, which `valid`
 * normalises, nor with a build part, which it drops), and without a pre-release part: the changelog headings, the gate's
 * `v*` baseline tags and `npm publish` (the `latest` tag) take plain X.Y.Z releases.
 */
export function releaseVersionProblem(version: string): string | undefined {
  const valid = semver.valid(version);
  if (valid === null) return `"${version}" is not a semantic version (semver.valid refuses it); give X.Y.Z, e.g. 2.1.0`;
  if (valid !== version) return `"${version}" is not written as a semantic version; give ${valid}`;
  if (semver.prerelease(version) !== null) return `"${version}" has a pre-release part; releases are plain X.Y.Z versions`;
  return undefined;
}

/** `info.version` of the source document: the `version:` line of its top-level `info:` block. */
export function sourceInfoVersion(text: string): string | undefined {
  return /^info:\n(?:[ \t]+.*\n)*?[ \t]+version:[ \t]*['"]?([^'"\s]+)/m.exec(text)?.[1];
}

/** The source document with its `info.version` set to `version`. */
export function withSourceInfoVersion(text: string, version: string): string {
  return text.replace(/^(info:\n(?:[ \t]+.*\n)*?[ \t]+version:[ \t]*)\S+/m, `$1${version}`);
}

/** The changelog's `## [X.Y.Z]` headings, newest first. */
export function releasedVersions(changelog: string): string[] {
  return [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\]/gm)].map((match) => match[1]!);
}

/**
 * The text of the `## <title>` section ("" when absent): the lines under its heading up to the next
 * `## `. The one reader of a changelog section, for the publish check and `npm run changelog`.
 */
export function sectionOf(text: string, title: string): string {
  const start = text.split("\n").findIndex((line) => line.startsWith(`## ${title}`));
  if (start < 0) return "";
  const lines = text.split("\n").slice(start + 1);
  const end = lines.findIndex((line) => line.startsWith("## "));
  return lines.slice(0, end < 0 ? undefined : end).join("\n");
}

/** The text under `## [Unreleased]` (its bare `###` headings and blank lines aside). */
export function unreleasedEntries(changelog: string): string {
  return sectionOf(changelog, "[Unreleased]")
    .replace(/^###.*$/gm, "")
    .trim();
}

/** Every place that states the version, as `place → version` (undefined where absent). */
export function statedVersions(repo: string): Record<string, string | undefined> {
  const root = readJson(repo, "package.json");
  const lock = readJson(repo, "package-lock.json");
  const stated: Record<string, string | undefined> = {
    "package.json": root.version,
    "package-lock.json": lock.version,
    'package-lock.json packages[""]': lock.packages?.[""]?.version,
  };
  for (const name of workspaces) {
    const manifest = readJson(repo, manifestOf(name));
    stated[manifestOf(name)] = manifest.version;
    stated[`package-lock.json packages["packages/${name}"]`] = lock.packages?.[`packages/${name}`]?.version;
    const peer = manifest.peerDependencies?.[contractName];
    if (peer !== undefined) stated[`${manifestOf(name)} peer ${contractName}`] = peer;
  }
  stated[`${documentSource} info.version`] = sourceInfoVersion(readFileSync(join(repo, documentSource), "utf8"));
  stated[`${documentBundle} info.version`] = readJson(repo, documentBundle).info?.version;
  stated["CHANGELOG.md top release heading"] = releasedVersions(readFileSync(join(repo, "CHANGELOG.md"), "utf8"))[0];
  return stated;
}
