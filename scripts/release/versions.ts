// Where the one release version is written: the root and workspace package.json files (and
// the workspaces' exact peer on the contract), package-lock.json, the document's
// info.version (source and bundle) and the top heading of CHANGELOG.md. Read by the publish
// check, written by the release command.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const workspaces = ["contract", "mock", "server", "conformance"] as const;
export const contractName = "@authsvc/app-api-contract";
export const documentSource = "openapi/openapi.yaml";
export const documentBundle = "generated/openapi.json";

export const readJson = (repo: string, file: string) => JSON.parse(readFileSync(join(repo, file), "utf8"));
export const manifestOf = (name: string) => `packages/${name}/package.json`;

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

/** The text under `## [Unreleased]` (its bare `###` headings and blank lines aside). */
export function unreleasedEntries(changelog: string): string {
  const match = /^## \[Unreleased\][^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(changelog);
  return (match?.[1] ?? "").replace(/^###.*$/gm, "").trim();
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
