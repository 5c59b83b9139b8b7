// Every relative link of the repository's Markdown names a file or folder that is there, so a
// moved document (docs/ to records/, a renamed folder) cannot leave a dead link behind.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";

const root = new URL("../../", import.meta.url).pathname;
const markdown = execFileSync("git", ["ls-files", "*.md"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter((file) => file !== "" && existsSync(join(root, file)));

it("every relative Markdown link names a file that exists", () => {
  expect(markdown.length).toBeGreaterThan(20);
  const dead = markdown.flatMap((file) => {
    // Links outside code spans and code blocks: `[text](target)`, the target up to a `#` or `)`.
    const text = readFileSync(join(root, file), "utf8")
      .replace(/```[\s\S]*?```/g, "")
      .replace(/`[^`\n]*`/g, "");
    return [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)\s]*)?\)/g)]
      .map(([, target]) => target!)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .filter((target) => !existsSync(join(root, dirname(file), decodeURIComponent(target))))
      .map((target) => `${file}: ${target}`);
  });
  expect(dead).toEqual([]);
});
