// The pieces of `npm run release` and of the publish check that read and write text: the
// source document's info.version, the changelog's [Unreleased] notes and release headings.
// The whole flow (release, publish, refusals) runs against a registry in
// test/package/registry.test.ts.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { refusals } from "../../scripts/release/publish-check.js";
import { datedChangelog, release } from "../../scripts/release/release.js";
import {
  contractName,
  releasedVersions,
  releaseVersionProblem,
  sourceInfoVersion,
  unreleasedEntries,
  withSourceInfoVersion,
  workspaces,
} from "../../scripts/release/versions.js";

const yaml = `openapi: 3.1.0
info:
  title: T
  version: 1.4.2
  contact:
    name: x
paths:
  /a:
    get:
      parameters:
        - name: version
`;

const changelog = `# Changelog

## [Unreleased]

### Added

- A thing.

## [1.4.2] - 2026-01-02

- Older.

## [1.4.1] - 2026-01-01
`;

describe("release text", () => {
  it("reads and writes info.version of the source document only", () => {
    expect(sourceInfoVersion(yaml)).toBe("1.4.2");
    const written = withSourceInfoVersion(yaml, "1.5.0");
    expect(sourceInfoVersion(written)).toBe("1.5.0");
    expect(written).toBe(yaml.replace("  version: 1.4.2", "  version: 1.5.0"));
  });

  it("reads the release headings newest first and the [Unreleased] entries", () => {
    expect(releasedVersions(changelog)).toEqual(["1.4.2", "1.4.1"]);
    expect(unreleasedEntries(changelog)).toBe("- A thing.");
    expect(unreleasedEntries(changelog.replace("- A thing.\n", ""))).toBe("");
  });

  it("turns the [Unreleased] notes into a dated release under a new empty [Unreleased]", () => {
    const dated = datedChangelog(changelog, "1.5.0", "2026-02-03");
    expect(releasedVersions(dated)).toEqual(["1.5.0", "1.4.2", "1.4.1"]);
    expect(unreleasedEntries(dated)).toBe("");
    expect(dated).toContain("## [Unreleased]\n\n## [1.5.0] - 2026-02-03\n\n### Added\n\n- A thing.\n");
  });
});

describe("release versions: semantic versions only (semver.valid, as npm)", () => {
  it("takes X.Y.Z and refuses what npm would not publish as such", () => {
    for (const version of ["2.0.1", "10.20.30", "0.0.0"]) expect(releaseVersionProblem(version), version).toBeUndefined();
    expect(releaseVersionProblem("02.0.1")).toBe('"02.0.1" is not a semantic version (semver.valid refuses it); give X.Y.Z, e.g. 2.1.0');
    expect(releaseVersionProblem("2.00.1")).toMatch(/is not a semantic version/);
    expect(releaseVersionProblem("2.0")).toMatch(/is not a semantic version/);
    expect(releaseVersionProblem("v2.0.1")).toBe('"v2.0.1" is not written as a semantic version; give 2.0.1');
    expect(releaseVersionProblem("2.0.1+build.5")).toBe('"2.0.1+build.5" is not written as a semantic version; give 2.0.1');
    expect(releaseVersionProblem("2.1.0-rc.1")).toBe('"2.1.0-rc.1" has a pre-release part; releases are plain X.Y.Z versions');
  });

  it("release refuses 02.0.1 before writing anything, and compares by semver", () => {
    const dir = mkdtempSync(join(tmpdir(), "release-"));
    try {
      writeFileSync(join(dir, "CHANGELOG.md"), changelog);
      expect(() => release(dir, "02.0.1")).toThrow('"02.0.1" is not a semantic version (semver.valid refuses it); give X.Y.Z, e.g. 2.1.0');
      // 1.4.10 is above 1.4.2 numerically; 1.4.2 itself and below are not.
      expect(() => release(dir, "1.4.2")).toThrow("1.4.2 is not above the last release, 1.4.2");
      expect(() => release(dir, "1.3.99")).toThrow("1.3.99 is not above the last release, 1.4.2");
      expect(readFileSync(join(dir, "CHANGELOG.md"), "utf8")).toBe(changelog);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("publish check (without the gate, which has its own tests)", () => {
  /** A minimal repository stating `version` everywhere, with `notes` as the changelog below the title. */
  function repoAt(version: string, notes: string): string {
    const dir = mkdtempSync(join(tmpdir(), "publish-check-"));
    const write = (file: string, text: string) => {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    };
    const peer = { peerDependencies: { [contractName]: version } };
    write("package.json", JSON.stringify({ name: "root", version }));
    const lock = { version, packages: { "": { version } } as Record<string, object> };
    for (const name of workspaces) {
      write(`packages/${name}/package.json`, JSON.stringify({ name, version, ...(name === "contract" ? {} : peer) }));
      lock.packages[`packages/${name}`] = { version };
    }
    write("package-lock.json", JSON.stringify(lock));
    write("openapi/openapi.yaml", withSourceInfoVersion(yaml, version));
    write("generated/openapi.json", JSON.stringify({ info: { version } }));
    write("CHANGELOG.md", `# Changelog\n\n## [Unreleased]\n\n${notes}`);
    return dir;
  }
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const check = (version: string, notes: string, edit?: (dir: string) => void) => {
    const dir = repoAt(version, notes);
    dirs.push(dir);
    edit?.(dir);
    return refusals(dir, false);
  };

  it("lets a release through whose versions agree and whose notes are dated", () => {
    expect(check("1.5.0", "## [1.5.0] - 2026-02-03\n\n- Added a thing.\n\n## [1.4.2] - 2026-01-02\n")).toEqual([]);
  });

  it("refuses a version that is not a semantic version, as release does", () => {
    expect(check("02.0.1", "## [02.0.1] - 2026-02-03\n")).toEqual([
      'package.json version "02.0.1" is not a semantic version (semver.valid refuses it); give X.Y.Z, e.g. 2.1.0',
    ]);
  });

  it("refuses each place that states another version", () => {
    const reasons = check("1.5.0", "## [1.5.0] - 2026-02-03\n", (dir) => {
      writeFileSync(join(dir, "generated/openapi.json"), JSON.stringify({ info: { version: "1.4.2" } }));
      const mock = join(dir, "packages/mock/package.json");
      writeFileSync(mock, JSON.stringify({ ...JSON.parse(readFileSync(mock, "utf8")), version: "1.5.1" }));
    });
    expect(reasons).toEqual([
      "packages/mock/package.json says 1.5.1, package.json says 1.5.0 (npm run release -- <version> writes them all)",
      "generated/openapi.json info.version says 1.4.2, package.json says 1.5.0 (npm run release -- <version> writes them all)",
    ]);
  });

  it("refuses notes left under [Unreleased], and a top release heading of another version", () => {
    const reasons = check("1.5.0", "- Not released yet.\n\n## [1.4.2] - 2026-01-02\n");
    expect(reasons).toEqual([
      "CHANGELOG.md top release heading says 1.4.2, package.json says 1.5.0 (npm run release -- <version> writes them all)",
      "CHANGELOG.md has entries under [Unreleased]: they would ship outside this release's notes (npm run release -- <version> moves them)",
    ]);
  });

  it("refuses a **Breaking** entry without a major bump, and lets it through with one", () => {
    const notes = (version: string) => `## [${version}] - 2026-02-03\n\n- **Breaking:** moved a thing.\n\n## [1.4.2] - 2026-01-02\n`;
    expect(check("1.5.0", notes("1.5.0"))).toEqual(["CHANGELOG.md [1.5.0] lists a breaking change but 1.5.0 does not raise the major version of 1.4.2"]);
    expect(check("2.0.0", notes("2.0.0"))).toEqual([]);
  });
});
