// `npm run docs`: the docs site, a directory (dist/docs/) that works served by any static
// server or opened from disk, with nothing fetched from elsewhere:
//   index.html    the reference (Redoc, inlined), with Changelog and Versions and deprecation
//                 sections rendered from CHANGELOG.md and docs/versioning.md at build time
//   openapi.json  the bundled document, for the Download button (unchanged from generated/)
//   favicon.svg, redocly-logo.svg   the two images the page shows
// Redoc's pre-rendered links are path routes (`/section/errors`), which 404 on a static
// server, on disk and in a new tab. Its script routes on the hash and reads `#section/errors`
// as the route `/section/errors`, so the links are written `#section/errors`: without
// JavaScript that is a plain anchor, since each pre-rendered section has `section/errors`
// as its id.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { appendedSections } from "./sections.js";

const out = process.argv[2] ?? "dist/docs";
const redocly = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");

// The document Redoc renders: the bundle, its introduction followed by the two sections.
const document = JSON.parse(readFileSync("generated/openapi.json", "utf8"));
document.info.description = `${document.info.description.trimEnd()}\n\n${appendedSections(readFileSync("CHANGELOG.md", "utf8"), readFileSync("docs/versioning.md", "utf8"))}`;

const scratch = mkdtempSync(join(tmpdir(), "authsvc-docs-"));
try {
  const rendered = join(scratch, "openapi.json");
  writeFileSync(rendered, JSON.stringify(document));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  execFileSync(
    process.execPath,
    [redocly, "build-docs", rendered, "--config", "openapi/redocly.yaml", "--inlineBundle", "--template", "openapi/docs-template.hbs", "-o", join(out, "index.html")],
    { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, REDOCLY_TELEMETRY: "off" } },
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const html = readFileSync(join(out, "index.html"), "utf8")
  // Pre-rendered route links (`href="/section/errors"`, `href="/widgets"`, `href="/"`) become
  // hash routes; `href="/` is never anything else in the page (external links are absolute).
  .replace(/href="\/([^"]*)"/g, (_, route: string) => `href="#${route}"`)
  // Redoc's attribution shows a logo from Redocly's CDN: the same mark, served from here.
  .replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g, "redocly-logo.svg");
if (/https:\/\/cdn\./.test(html.replace(/https:\/\/cdn\.(redocly\.com\/icons|acme-shop\.example)\/[^\s"'`]*/g, ""))) {
  throw new Error("the page still names a CDN address it would load from");
}
writeFileSync(join(out, "index.html"), html);
copyFileSync("generated/openapi.json", join(out, "openapi.json"));
copyFileSync("openapi/docs-assets/favicon.svg", join(out, "favicon.svg"));
copyFileSync("openapi/docs-assets/redocly-logo.svg", join(out, "redocly-logo.svg"));
