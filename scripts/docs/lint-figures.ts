// `npm run lint:figures`: the OWASP lint figures docs/security.md quotes, measured and
// written there. Runs Spectral (spectral:oas + the OWASP ruleset, openapi/spectral.yaml, as
// `npm run lint:owasp` does) on generated/openapi.json, and writes the marked regions
// `<!-- lint:KEY -->…<!-- /lint -->`: the count per severity and the rules that fire. The
// script is their only writer; test/tooling/spectral.test.ts renders the regions from its
// own Spectral run and fails when the page says otherwise.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
/** The page that quotes the figures. */
export const lintFiguresPage = "docs/security.md";

/** One finding of Spectral's JSON report (severity 0 error, 1 warning, 2 info, 3 hint). */
export interface Finding {
  code: string;
  severity: number;
}

// Spectral's own words for its summary line ("0 errors, 55 warnings, 0 infos, 0 hints").
const severities = ["error", "warning", "info", "hint"];
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The text of each region, by key. */
export function renderLintFigures(findings: Finding[]): Record<string, string> {
  const count = (severity: number) => findings.filter((finding) => finding.severity === severity).length;
  const rules = (severity: number) => [...new Set(findings.filter((finding) => finding.severity === severity).map((finding) => finding.code))].sort();
  const warningRules = rules(1);
  return {
    "owasp-counts": severities.map((word, severity) => plural(count(severity), word)).join(", "),
    "owasp-warning-rules": warningRules.length === 0 ? "none" : warningRules.map((rule) => `\`${rule}\``).join(", "),
  };
}

const region = /<!-- lint:([a-z-]+) -->([\s\S]*?)<!-- \/lint -->/g;

/** The text with every region rewritten from the findings; an unknown region key throws. */
export function fillLintFigures(text: string, findings: Finding[]): string {
  const rendered = renderLintFigures(findings);
  return text.replace(region, (_, key: string) => {
    if (!(key in rendered)) throw new Error(`unknown lint region "${key}"`);
    return `<!-- lint:${key} -->${rendered[key]}<!-- /lint -->`;
  });
}

/** Spectral's findings on a bundled document, with the project's ruleset. */
export function spectralFindings(document = join(root, "generated/openapi.json")): Finding[] {
  const scratch = mkdtempSync(join(tmpdir(), "lint-figures-"));
  try {
    const out = join(scratch, "report.json");
    const args = ["lint", document, "--ruleset", join(root, "openapi/spectral.yaml"), "--format", "json", "--output", out, "--fail-severity", "error"];
    try {
      execFileSync(join(root, "node_modules/.bin/spectral"), args, { cwd: root, stdio: "ignore" });
    } catch {
      // Exit 1 on an error finding: the report says which.
    }
    return JSON.parse(readFileSync(out, "utf8")) as Finding[];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const findings = spectralFindings();
  const file = join(root, lintFiguresPage);
  writeFileSync(file, fillLintFigures(readFileSync(file, "utf8"), findings));
  console.log(`lint:figures: ${renderLintFigures(findings)["owasp-counts"]}; wrote ${lintFiguresPage}`);
}
