// One version: the package, its lockfile and the document's info.version agree.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { doc } from "../support/document.js";

const read = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), "utf8"));

describe("versions", () => {
  const pkg = read("package.json");
  const lock = read("package-lock.json");

  it("package.json, package-lock.json and info.version are one semantic version", () => {
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(doc.info.version).toBe(pkg.version);
    expect(lock.version).toBe(pkg.version);
    expect(lock.packages[""].version).toBe(pkg.version);
  });

  it("is 1.0.0 or later (the contract is stable)", () => {
    expect(Number(pkg.version.split(".")[0])).toBeGreaterThanOrEqual(1);
  });
});
