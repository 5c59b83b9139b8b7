// `npm run release -- <X.Y.Z>`: one version for the three packages. Writes the version into
// every place versions.ts lists (the package manifests and the workspaces' exact peer on the
// contract, package-lock.json, the document's info.version), regenerates generated/ from the
// document, and turns the [Unreleased] notes of CHANGELOG.md into `## [X.Y.Z] - <today>`
// under a new empty [Unreleased]. It neither commits, tags nor publishes: review the diff,
// commit, tag vX.Y.Z, then `npm publish --workspaces` (whose check refuses a release that
// disagrees with itself or breaks clients without a major bump). docs/publishing.md
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { contractName, documentSource, manifestOf, readJson, releasedVersions, releaseVersionProblem, withSourceInfoVersion, workspaces } from "./versions.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const writeJson = (repo: string, file: string, value: unknown) => writeFileSync(join(repo, file), `${JSON.stringify(value, null, 2)}\n`);

/** The changelog with the [Unreleased] notes under `## [version] - date`, and a new empty [Unreleased] above. */
export function datedChangelog(text: string, version: string, date: string): string {
  const heading = /^## \[Unreleased\][^\n]*$/m;
  if (!heading.test(text)) throw new Error("CHANGELOG.md has no ## [Unreleased] heading");
  return text.replace(heading, `## [Unreleased]\n\n## [${version}] - ${date}`);
}

/** Writes `version` everywhere and regenerates; throws (nothing written) on a bad version. */
export function release(repo: string, version: string, date = new Date().toISOString().slice(0, 10)): void {
  const problem = releaseVersionProblem(version);
  if (problem) throw new Error(problem);
  const changelog = readFileSync(join(repo, "CHANGELOG.md"), "utf8");
  const last = releasedVersions(changelog)[0];
  // A heading that is not a semantic version (written by hand) cannot be compared: refused too.
  if (last && (semver.valid(last) === null || !semver.gt(version, last))) throw new Error(`${version} is not above the last release, ${last}`);

  const root = readJson(repo, "package.json");
  writeJson(repo, "package.json", { ...root, version });
  const lock = readJson(repo, "package-lock.json");
  lock.version = version;
  lock.packages[""].version = version;
  for (const name of workspaces) {
    const manifest = readJson(repo, manifestOf(name));
    manifest.version = version;
    if (manifest.peerDependencies?.[contractName]) manifest.peerDependencies[contractName] = version;
    writeJson(repo, manifestOf(name), manifest);
    const locked = lock.packages[`packages/${name}`];
    locked.version = version;
    if (locked.peerDependencies?.[contractName]) locked.peerDependencies[contractName] = version;
  }
  writeJson(repo, "package-lock.json", lock);
  const source = join(repo, documentSource);
  writeFileSync(source, withSourceInfoVersion(readFileSync(source, "utf8"), version));
  execFileSync(npm, ["run", "-s", "generate"], { cwd: repo, stdio: "inherit" });
  writeFileSync(join(repo, "CHANGELOG.md"), datedChangelog(changelog, version, date));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [version, ...rest] = process.argv.slice(2);
  if (version === undefined || rest.length > 0) {
    console.error("usage: npm run release -- <X.Y.Z>");
    process.exitCode = 2;
  } else {
    try {
      release(fileURLToPath(new URL("../../", import.meta.url)), version);
      console.log(
        `release: ${version} written to the packages, package-lock.json, info.version, generated/ and CHANGELOG.md; review, commit, tag v${version}, then npm publish --workspaces`,
      );
    } catch (error) {
      console.error(`release: ${(error as Error).message}`);
      process.exitCode = 1;
    }
  }
}
