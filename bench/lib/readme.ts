// Figures quoted in bench/README.md (or another doc) are written by the script that measures
// them: each script owns one block between `<!-- name:begin -->` and `<!-- name:end -->` and
// replaces it whole (a block not there yet goes at the top of the Figures section).
import { readFileSync, writeFileSync } from "node:fs";

const readme = new URL("../README.md", import.meta.url);

export function writeReadmeBlock(name: string, markdown: string, file: URL = readme): void {
  const text = readFileSync(file, "utf8");
  const begin = `<!-- ${name}:begin (written by the script; do not edit) -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${begin}\n${markdown.trim()}\n${end}`;
  const pattern = new RegExp(`<!-- ${name}:begin[^>]*-->[\\s\\S]*?<!-- ${name}:end -->`);
  const next = pattern.test(text) ? text.replace(pattern, () => block) : text.replace(/\n## Figures\n/, () => `\n## Figures\n\n${block}\n`);
  writeFileSync(file, next);
}
