// The diff's three outputs: text for a terminal, JSON for tools, Markdown for a pull request.
import type { Change, DiffResult } from "./index.js";

export const formats = ["text", "json", "markdown"] as const;
export type Format = (typeof formats)[number];

const label = { major: "BREAKING", minor: "minor", patch: "patch" } as const;

/** The verdict line the gate and the CLI print. */
export function verdict(result: DiffResult): string {
  const versions = `${result.baseVersion} → ${result.headVersion}`;
  const { major, minor } = result.count;
  if (result.required === "major") {
    return result.failed
      ? `FAIL: ${major} breaking change(s) without a major version bump (${versions}; needs ${result.lowest} or later).`
      : `OK: ${major} breaking change(s) with the major version raised (${versions}).`;
  }
  if (result.required === "minor") {
    return result.failed
      ? `FAIL: ${minor} addition(s) without a minor version bump (${versions}; needs ${result.lowest} or later).`
      : `OK: ${minor} addition(s) with the version raised to at least ${result.lowest} (${versions}).`;
  }
  return `OK: no change needs a version bump (${versions}).`;
}

const where = (c: Change) => `${c.path}${c.property ? ` (${c.property})` : ""}`;

export function render(result: DiffResult, format: Format, options: { patch?: boolean } = {}): string {
  if (format === "json") return `${JSON.stringify(result, null, 2)}\n`;
  // Patch-level changes (descriptions, examples' values) are counted; listed only on request.
  const listed = options.patch ? result.changes : result.changes.filter((c) => c.impact !== "patch");
  const { major, minor, patch } = result.count;
  const heading = `${result.changes.length} change(s): ${major} major, ${minor} minor, ${patch} patch, between ${result.baseVersion} (base) and ${result.headVersion} (head)`;
  if (format === "markdown") {
    const cell = (text: string) => text.replace(/\|/g, "\\|");
    const rows = listed.map(
      (c) =>
        `| ${c.impact === "major" ? "**major**" : c.impact} | ${c.rules.map((r) => `\`${r}\``).join(", ")} | ${cell(c.message)} | ${cell(c.operation)} | \`${cell(where(c))}\` |`,
    );
    const table = listed.length === 0 ? [] : ["| impact | rule | change | operation | where |", "|---|---|---|---|---|", ...rows, ""];
    return [`### Contract diff`, "", `${heading}.`, "", ...table, verdict(result), ""].join("\n");
  }
  const blocks = listed.map((c) =>
    [
      `${label[c.impact]}  ${c.rules.length > 0 ? c.rules.join(", ") : c.kind}`,
      `  ${c.message}`,
      ...(c.operation ? [`  operation: ${c.operation}`] : []),
      `  at: ${where(c)}`,
    ].join("\n"),
  );
  return [heading, "", ...blocks.flatMap((b) => [b, ""]), verdict(result), ""].join("\n");
}
