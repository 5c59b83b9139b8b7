// Figures quoted in bench/README.md (or another doc) are written by the script that measures
// them: each script owns one block between `<!-- name:begin -->` and `<!-- name:end -->` and replaces
// it whole (a block not there yet goes at the top of the Figures section), its tables made
// by markdownTable.
import { readFileSync, writeFileSync } from "node:fs";

const readme = new URL("../README.md", import.meta.url);

/** A Markdown table; the first `textColumns` columns left-aligned, the others right. */
export function markdownTable(headers: string[], rows: (string | number)[][], textColumns = 1): string {
  const align = headers.map((_, i) => (i < textColumns ? "---" : "---:")).join("|");
  return [`| ${headers.join(" | ")} |`, `|${align}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
}

/** A machine as the blocks name it. */
export const machineLine = (m: { cpus: number; cpuModel: string; node: string; loadavg: number[] }, after: { loadavg: number[] }) =>
  `${m.cpus} × ${m.cpuModel}, Node ${m.node}; load average (1/5/15 min) ${m.loadavg.join(" / ")} before, ${after.loadavg.join(" / ")} after`;

export function writeReadmeBlock(name: string, markdown: string, file: URL = readme): void {
  const text = readFileSync(file, "utf8");
  const begin = `<!-- ${name}:begin (written by the script; do not edit) -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${begin}\n${markdown.trim()}\n${end}`;
  const pattern = new RegExp(`<!-- ${name}:begin[^>]*-->[\\s\\S]*?<!-- ${name}:end -->`);
  const next = pattern.test(text) ? text.replace(pattern, () => block) : text.replace(/\n## Figures\n/, () => `\n## Figures\n\n${block}\n`);
  writeFileSync(file, next);
}
