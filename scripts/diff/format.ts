// The diff's three outputs: text for a terminal, JSON for tools, Markdown for a pull request.
import type { DiffResult } from "./index.js";

export const formats = ["text", "json", "markdown"] as const;
export type Format = (typeof formats)[number];

/** The verdict line the gate and the CLI print. */
export function verdict(result: DiffResult): string {
  const versions = `${result.baseVersion} → ${result.headVersion}`;
  if (result.breaking === 0) return `OK: no breaking change (${versions}).`;
  if (result.majorRaised) return `OK: ${result.breaking} breaking change(s) with the major version raised (${versions}).`;
  return `FAIL: ${result.breaking} breaking change(s) without a major version bump (${versions}).`;
}

export function render(result: DiffResult, format: Format): string {
  if (format === "json") return `${JSON.stringify(result, null, 2)}\n`;
  const { changes } = result;
  const heading = `${changes.length} change(s), ${result.breaking} breaking, between ${result.baseVersion} (base) and ${result.headVersion} (head)`;
  if (format === "markdown") {
    const cell = (text: string) => text.replace(/\|/g, "\\|");
    const rows = changes.map(
      (c) => `| ${c.breaking ? "**breaking**" : "non-breaking"} | \`${c.rule}\` | ${cell(c.message)} | ${cell(c.operations.join(", "))} | \`${c.base}\` | \`${c.head}\` |`,
    );
    const table = changes.length === 0 ? [] : ["| | rule | change | operations | base | head |", "|---|---|---|---|---|---|", ...rows, ""];
    return [`### Contract diff`, "", `${heading}.`, "", ...table, verdict(result), ""].join("\n");
  }
  const blocks = changes.map((c) =>
    [
      `${c.breaking ? "BREAKING" : "non-breaking"}  ${c.rule}`,
      `  ${c.message}`,
      ...(c.operations.length ? [`  operations: ${c.operations.join(", ")}`] : []),
      `  base: ${c.base}`,
      `  head: ${c.head}`,
    ].join("\n"),
  );
  return [heading, "", ...blocks.flatMap((b) => [b, ""]), verdict(result), ""].join("\n");
}
