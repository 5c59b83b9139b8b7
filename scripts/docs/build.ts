// `npm run docs`: the docs site, a directory (dist/docs/) that works served by any static
// server or opened from disk, with nothing fetched from elsewhere:
//   index.html    the page (scripts/docs/page.ts): Content-Security-Policy, the document as
//                 JSON data (as Scalar's store processes it: scripts/docs/preprocess.ts), with
//                 Changelog and Versions and deprecation sections rendered from CHANGELOG.md
//                 and docs/versioning.md at build time
//   scalar.js     Scalar's API reference, its standalone bundle (`@scalar/api-reference`)
//   docs.js, docs.css   what starts it and the page's own rules
//   search.js     the guides' text added to Scalar's search
//   openapi.json  the bundled document, for download (unchanged from generated/)
//   favicon.svg
// and beside each text file its .br and .gz (node's zlib, best compression) for a server to
// send as they are (docs/docs-site.md says how). The build prints each file's bytes, raw and
// compressed.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { configuration, contentSecurityPolicy, indexHtml, mockServer } from "./page.js";
import { deref, operationEntries } from "../../server/document/walk.js";
import { preprocessed } from "./preprocess.js";
import { appendedSections } from "./sections.js";
import { samplesPerExample } from "./typescript-samples.js";

const out = process.argv[2] ?? "dist/docs";
const require = createRequire(import.meta.url);

// The document the page renders: the bundle, its introduction followed by the two sections.
// DOCS_DOCUMENT: another bundle (test/versioning renders a deprecated copy).
const source = process.env.DOCS_DOCUMENT ?? "generated/openapi.json";
const document = JSON.parse(readFileSync(source, "utf8"));
document.info.description = `${document.info.description.trimEnd()}\n\n${appendedSections(readFileSync("CHANGELOG.md", "utf8"), readFileSync("docs/versioning.md", "utf8"))}`;
// The console starts on the local mock; the other servers stay selectable.
document.servers = [...document.servers].sort((a: { url: string }, b: { url: string }) => Number(b.url === mockServer) - Number(a.url === mockServer));
if (document.servers[0].url !== mockServer) throw new Error(`the document no longer lists the mock's server ${mockServer}`);
// Scalar generates curl (and the other languages) from the example chosen on the page; the
// document's own curl samples would show one fixed body. The TypeScript client's sample is
// written once per request example (scripts/docs/typescript-samples.ts), so it follows too.
type Sample = { lang: string; label: string; source: string };
type Operation = { "x-codeSamples"?: Sample[]; requestBody?: unknown };
for (const { operation } of operationEntries<Operation>(document)) {
  if (!operation["x-codeSamples"]) continue;
  const content = operation.requestBody ? deref<{ content: Record<string, { examples?: Record<string, unknown> }> }>(document, operation.requestBody).content : {};
  const examples = Object.entries(content["application/json"]?.examples ?? {}).map(
    ([name, example]) => [name, deref<{ value: unknown }>(document, example).value] as [string, unknown],
  );
  operation["x-codeSamples"] = operation["x-codeSamples"].flatMap((sample) =>
    sample.lang === "curl" ? [] : sample.lang === "TypeScript" && examples.length ? samplesPerExample(sample, examples) : [sample],
  );
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const title = document.info.title as string;
writeFileSync(
  join(out, "index.html"),
  indexHtml({
    title,
    description: (document.info.summary as string | undefined) ?? title,
    csp: contentSecurityPolicy(document.servers.map((s: { url: string }) => s.url)),
    document: await preprocessed(document, configuration(title).slug),
  }),
);
// The package exports no path to its browser bundle; it sits beside the entry point.
copyFileSync(join(dirname(require.resolve("@scalar/api-reference")), "browser/standalone.js"), join(out, "scalar.js"));
copyFileSync("openapi/docs-assets/docs.js", join(out, "docs.js"));
copyFileSync("openapi/docs-assets/search.js", join(out, "search.js"));
copyFileSync("openapi/docs-assets/docs.css", join(out, "docs.css"));
copyFileSync(source, join(out, "openapi.json"));
copyFileSync("openapi/docs-assets/favicon.svg", join(out, "favicon.svg"));

// Precompressed copies: a static server that serves them (nginx gzip_static/brotli_static,
// Caddy's precompressed) sends the page at a quarter of its size without compressing per request.
const kB = (bytes: number) => `${(bytes / 1000).toFixed(0)} kB`;
let total = { raw: 0, br: 0, gz: 0 };
for (const name of ["index.html", "scalar.js", "docs.js", "search.js", "docs.css", "openapi.json", "favicon.svg"]) {
  const raw = readFileSync(join(out, name));
  const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
  const gz = gzipSync(raw, { level: 9 });
  writeFileSync(join(out, `${name}.br`), br);
  writeFileSync(join(out, `${name}.gz`), gz);
  console.log(`${name.padEnd(14)} ${kB(raw.length).padStart(8)} raw ${kB(gz.length).padStart(8)} gzip ${kB(br.length).padStart(8)} brotli`);
  if (name !== "openapi.json") total = { raw: total.raw + raw.length, br: total.br + br.length, gz: total.gz + gz.length };
}
console.log(`${"page (no .json)".padEnd(14)} ${kB(total.raw).padStart(8)} raw ${kB(total.gz).padStart(8)} gzip ${kB(total.br).padStart(8)} brotli`);
