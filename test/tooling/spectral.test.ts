// The bundle passes spectral:oas plus the OWASP API Security ruleset with 0 errors
// (`npm run lint:owasp`), the project's copy of the credentials-in-URL rule still bites, and
// docs/security.md quotes the counts this run measures (`npm run lint:figures` writes them).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { fillLintFigures, lintFiguresPage } from "../../scripts/docs/lint-figures.js";
import { bin, root, run } from "./run.js";

const scratch = mkdtempSync(join(tmpdir(), "spectral-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Finding {
  code: string;
  severity: number;
}

async function lint(document: string): Promise<{ code: number; findings: Finding[] }> {
  const out = join(scratch, `${Math.random().toString(36).slice(2)}.json`);
  const ran = await run(bin("spectral"), [
    "lint",
    document,
    "--ruleset",
    join(root, "openapi/spectral.yaml"),
    "--format",
    "json",
    "--output",
    out,
    "--fail-severity",
    "error",
  ]);
  let findings: Finding[] = [];
  try {
    findings = JSON.parse(readFileSync(out, "utf8")) as Finding[];
  } catch {
    throw new Error(`spectral wrote no report: ${ran.output}`);
  }
  return { code: ran.code, findings };
}

it("generated/openapi.json: 0 errors under spectral:oas and the OWASP ruleset, the counts docs/security.md quotes", { timeout: 120_000 }, async () => {
  const { code, findings } = await lint(join(root, "generated/openapi.json"));
  expect(findings.filter((f) => f.severity === 0).map((f) => f.code)).toEqual([]);
  expect(code).toBe(0);
  const page = readFileSync(join(root, lintFiguresPage), "utf8");
  expect(page).toContain("<!-- lint:owasp-counts -->");
  expect(fillLintFigures(page, findings), "rerun npm run lint:figures (the only writer of these figures)").toBe(page);
  // A figure typed by hand is caught, and so is a region the script does not know.
  const typed = page.replace(/<!-- lint:owasp-counts -->[^<]*/, "<!-- lint:owasp-counts -->0 errors, 45 warnings, 0 infos, 0 hints");
  expect(fillLintFigures(typed, findings)).not.toBe(typed);
  expect(() => fillLintFigures("<!-- lint:nope -->x<!-- /lint -->", findings)).toThrow(/unknown lint region "nope"/);
});

it("a query parameter named access_token is an error of owasp:api2:2023-no-credentials-in-url", { timeout: 120_000 }, async () => {
  const document = JSON.parse(readFileSync(join(root, "generated/openapi.json"), "utf8"));
  document.paths["/webhooks"].get.parameters.push({ name: "access_token", in: "query", schema: { type: "string", maxLength: 64, pattern: "^[a-z]+$" } });
  const file = join(scratch, "credentials-in-url.json");
  writeFileSync(file, JSON.stringify(document));
  const { code, findings } = await lint(file);
  expect(findings.filter((f) => f.severity === 0).map((f) => f.code)).toEqual(["owasp:api2:2023-no-credentials-in-url"]);
  expect(code).not.toBe(0);
});
