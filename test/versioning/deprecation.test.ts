// Deprecation, proved on a temporary copy of the document with one operation (readWidget),
// one parameter (`status` of findEncryptionReports) and one field (Webhook `is_active`)
// deprecated: openapi-typescript's `@deprecated` and the docs site's "Deprecated" badge in
// Chromium. Nothing of the API itself is deprecated, and every deprecated part must carry its
// two dates. The server's Deprecation and Sunset headers are test/server/middleware/deprecation.test.ts's
// (in-process, so the mutation run sees them).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { doc, type Node } from "../support/document.js";
import { chromiumMissing, chromiumPath, realPart } from "../support/real-parts.js";
import { bin, root, run } from "../tooling/run.js";
import { deprecationProblems } from "./deprecated-parts.js";

const dates = { "x-deprecated-at": "2026-12-01", "x-sunset": "2027-06-01" };

function deprecatedCopy(): Node {
  const copy = structuredClone(doc);
  Object.assign(copy.paths["/widgets/{id}"].get, { deprecated: true }, dates);
  Object.assign(copy.components.parameters.ReportStatus, { deprecated: true }, dates);
  Object.assign(copy.components.schemas.Webhook.properties.is_active, { deprecated: true }, dates);
  return copy;
}

const dir = mkdtempSync(join(tmpdir(), "deprecation-"));
const copyFile = join(dir, "openapi.json");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(copyFile, JSON.stringify(deprecatedCopy()));

describe("the document", () => {
  it("deprecates nothing of this API", () => {
    expect(JSON.stringify(doc)).not.toContain('"deprecated":true');
  });

  it("every deprecated part carries x-deprecated-at and x-sunset, six months apart", () => {
    expect(deprecationProblems(doc)).toEqual([]);
    expect(deprecationProblems(deprecatedCopy())).toEqual([]);
    const undated = deprecatedCopy();
    delete undated.components.parameters.ReportStatus["x-sunset"];
    undated.paths["/widgets/{id}"].get["x-sunset"] = "2027-01-01";
    expect(deprecationProblems(undated)).toEqual([
      "/paths/~1widgets~1{id}/get: x-sunset less than six months after x-deprecated-at",
      "/components/parameters/ReportStatus: deprecated without a valid x-sunset",
    ]);
  });
});

describe("the generated types of the deprecated copy", () => {
  it("mark the operation, the parameter and the field @deprecated (and this API's types nothing)", async () => {
    const out = join(dir, "schema.d.ts");
    const generated = await run(bin("openapi-typescript"), [copyFile, "-o", out, "--root-types", "--default-non-nullable=false"]);
    expect(generated.code, generated.output).toBe(0);
    const types = readFileSync(out, "utf8");
    const docBefore = (what: string) => new RegExp(`/\\*\\*(?:(?!\\*/)[\\s\\S])*@deprecated(?:(?!\\*/)[\\s\\S])*\\*/\\s*${what}`);
    expect(types).toMatch(docBefore('get: operations\\["readWidget"\\]'));
    expect(types).toMatch(docBefore('status\\?: components\\["parameters"\\]\\["ReportStatus"\\]'));
    expect(types).toMatch(docBefore("is_active: boolean"));
    expect(readFileSync(join(root, "generated/schema.d.ts"), "utf8")).not.toContain("@deprecated");
  });
});

describe.skipIf(realPart(chromiumMissing()) !== undefined)("the rendered reference of the deprecated copy", { timeout: 120_000 }, () => {
  it("shows the Deprecated badge on the operation", async () => {
    // The docs site's own build (scripts/docs/build.ts) over the copy; the old one-page link opens the tag's page.
    const site = join(dir, "docs");
    const built = await run(bin("tsx"), [join(root, "scripts/docs/build.ts"), site], root, { DOCS_DOCUMENT: copyFile });
    expect(built.code, built.output).toBe(0);
    const html = join(site, "index.html");
    const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await page.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
      // Opened by its link; the badge sits beside the operation's heading.
      const operation = async (route: string, summary: string) => {
        await page.goto(`${pathToFileURL(html).href}#${route}`, { waitUntil: "load" });
        const section = page.locator(`[id$="${route}"]`).first();
        await section.getByRole("heading", { name: summary, exact: true }).first().waitFor({ timeout: 20_000 });
        return section.locator(".section-header-label, .section-header, h1, h2, [class*=badge]").allInnerTexts();
      };
      const summaryOf = (path: string) => doc.paths[path].get.summary as string;
      expect((await operation("tag/widgets/GET/widgets/{id}", summaryOf("/widgets/{id}"))).join("\n")).toContain("Deprecated");
      expect((await operation("tag/webhooks/GET/webhooks", summaryOf("/webhooks"))).join("\n")).not.toContain("Deprecated");
    } finally {
      await browser.close();
    }
  });
});
