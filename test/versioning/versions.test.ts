// One version: every place that states it (the root and workspace manifests, the
// workspaces' peer on the contract, the lockfile, info.version in the source and the bundle,
// the changelog's top release heading: scripts/release/versions.ts) says package.json's.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { statedVersions } from "../../scripts/release/versions.js";
import { doc } from "../support/document.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));

describe("versions", () => {
  it("every place that states the version states package.json's, a semantic version", () => {
    const stated = statedVersions(root);
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Object.keys(stated).length).toBeGreaterThanOrEqual(14);
    expect(stated).toEqual(Object.fromEntries(Object.keys(stated).map((place) => [place, pkg.version])));
    expect(doc.info.version).toBe(pkg.version);
  });

  it("is 1.0.0 or later (the contract is stable)", () => {
    expect(Number(pkg.version.split(".")[0])).toBeGreaterThanOrEqual(1);
  });
});
