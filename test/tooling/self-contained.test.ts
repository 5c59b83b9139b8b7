// The repository states its own decisions (docs/decisions.md and the document): no file cites
// the planning documents it was built from, which a reader of the repository does not have,
// nor a section number (§) of anything but a public RFC.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url).pathname;
const outside = ["CONTRACT", "SERVICE", "TOOLING", "STYLE"].map((name) => `${name}.md`);
const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter((file) => /\.(ts|js|mjs|md|ya?ml|sql|hbs|sh|json)$|^\.ci\//.test(file) && !file.startsWith("generated/") && file !== "package-lock.json");

describe("the repository stands alone", () => {
  it("has text files to look at", () => {
    expect(tracked.length).toBeGreaterThan(100);
  });

  it("cites no document from outside it and no section number", () => {
    const citing = tracked.flatMap((file) => {
      const text = readFileSync(root + file, "utf8");
      return [...outside.filter((name) => text.includes(name)), ...(/(?<!RFC \d{3,5} )§\s*\d/.test(text) ? ["§"] : [])].map((what) => `${file}: ${what}`);
    });
    expect(citing).toEqual([]);
  });
});
