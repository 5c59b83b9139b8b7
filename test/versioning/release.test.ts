// The pieces of `npm run release` and of the publish check that read and write text: the
// source document's info.version, the changelog's [Unreleased] notes and release headings.
// The whole flow (release, publish, refusals) runs against a registry in
// test/package/registry.test.ts.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { refusals } from "../../scripts/release/publish-check.js";
import { datedChangelog } from "../../scripts/release/release.js";
import { contractName, releasedVersions, sourceInfoVersion, unreleasedEntries, withSourceInfoVersion, workspaces } from "../../scripts/release/versions.js";

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
