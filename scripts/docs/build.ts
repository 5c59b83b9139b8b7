// `npm run docs`: the docs site, a directory (dist/docs/) that works served by any static
// server or opened from disk, with nothing fetched from elsewhere:
//   index.html         the introduction and Getting started as static HTML (page.ts), its stylesheet inlined
//   <guide>.html       one page per further guide: clients.html, limits.html, … changelog.html
//   <tag>.html         one page per tag with its operations (notifications.html, …)
//   models.html        what many responses share (the problem body, the rate-limit headers)
//   docs.js            the pickers, the server choice, the phone menu; loads the rest on demand:
//   console.js, console-data.js   the try-it console, when a reader presses "Try it"
//   samples.js         every sample for every server, when a reader picks another server
//   search.js, search-index.js    search, when a reader opens it
//   openapi.json       the bundled document, for download (unchanged from generated/)
//   postman/           the Postman collection and its environments (from generated/postman/)
//   llms.txt, guides/*.md, operations/*.md   the same content as Markdown (llms.ts)
//   favicon.svg
// and beside each file its .br and .gz (node's zlib, best compression) for a server to send
// as they are (docs/docs-site.md says how). The build prints the bytes of what a first view
// loads (index.html and docs.js) and of the whole site.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { clientsMarkdown } from "./clients.js";
import { historyOf } from "./history.js";
import { guideMarkdown, guideMarkdownFile, llmsTxt, operationMarkdown, operationMarkdownFile } from "./llms.js";
import { plainText, type Section, splitSections } from "./markdown.js";
import { operationsOf, serversOf, sharedOf, tagsOf } from "./operation.js";
import { contentSecurityPolicy, linkAcrossPages, mockServer, pageHtml, pageOfIds, pagesOf } from "./page.js";
import { type Sample, samplesOf } from "./samples.js";
import { searchIndex } from "./search-index.js";
import { appendedSections } from "./sections.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const out = process.argv[2] ?? "dist/docs";
const assets = "openapi/docs-assets";

// DOCS_DOCUMENT: another bundle (test/versioning renders a deprecated copy).
const source = process.env.DOCS_DOCUMENT ?? "generated/openapi.json";
const documentText = readFileSync(source, "utf8");
const document = JSON.parse(documentText);
const changelog = readFileSync("CHANGELOG.md", "utf8");

// The guides: the introduction's sections, Clients after Getting started, then the changelog and the versioning policy.
const { lead, sections } = splitSections(document.info.description as string, "description/");
const clients: Section = {
  title: "Clients",
  id: "description/clients",
  markdown: clientsMarkdown(readFileSync(join(assets, "clients.md"), "utf8"), readFileSync("docs/document.md", "utf8")),
  subsections: [],
};
const appended = splitSections(appendedSections(changelog, readFileSync("docs/versioning.md", "utf8")), "description/").sections;
const start = sections.findIndex((s) => s.id === "description/getting-started");
const guides = [...sections.slice(0, start + 1), clients, ...sections.slice(start + 1), ...appended];

const environments = readdirSync("generated/postman")
  .filter((name) => name.endsWith(".postman_environment.json"))
  .map((name) => JSON.parse(readFileSync(join("generated/postman", name), "utf8")));
const servers = serversOf(document, environments, mockServer);
const production = servers.find((s) => !s.demo) ?? servers[0]!;
const operations = operationsOf(document);
const tags = tagsOf(document, operations);
const samples = new Map<string, Sample[]>(operations.map((o) => [o.operationId, samplesOf(o, servers)]));
const history = historyOf(repo, documentText, changelog);
for (const note of history.notes) console.warn(`docs: history: ${note}`);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const write = (name: string, text: string) => {
  mkdirSync(dirname(join(out, name)), { recursive: true });
  writeFileSync(join(out, name), text);
};
/** A classic script that hands data to the page's scripts: runs from disk too, where fetch() of a file is refused. */
const dataScript = (name: string, value: unknown) => `window.${name} = ${JSON.stringify(value).replace(/</g, "\\u003c")};\n`;

const css = readFileSync(join(assets, "docs.css"), "utf8");
const title = document.info.title as string;
const version = document.info.version as string;
const site = {
  title,
  summary: (document.info.summary as string | undefined) ?? title,
  version,
  lead,
  guides,
  tags,
  samples: new Map([...samples].map(([id, list]) => [id, list.filter((s) => s.server === servers[0]!.url)])),
  history,
  shared: sharedOf(operations),
  servers,
  css,
  csp: contentSecurityPolicy(
    servers.map((s) => s.url),
    css,
  ),
};
const pages = linkAcrossPages(pagesOf(site).map((page) => ({ file: page.file, html: pageHtml(site, page) })));
for (const page of pages) write(page.file, page.html);
const pageOf = pageOfIds(pages);
for (const name of ["docs.js", "console.js", "search.js", "favicon.svg"]) copyFileSync(join(assets, name), join(out, name));
write(
  "console-data.js",
  dataScript("docsConsoleData", {
    servers,
    operations: Object.fromEntries(
      operations.map((o) => [
        o.operationId,
        {
          method: o.method,
          path: o.path,
          summary: o.summary,
          security: o.security.map(({ header, credential }) => ({ header, credential })),
          parameters: o.parameters.map((p) => ({
            name: p.name,
            in: p.in,
            required: p.required,
            value: String(o.sampleParams[p.in as "path" | "query"]?.[p.name] ?? ""),
          })),
          examples: o.requestExamples.map(({ key, summary, value }) => ({ key, summary, value })),
        },
      ]),
    ),
  }),
);
write("samples.js", dataScript("docsSamples", Object.fromEntries(samples)));
write(
  "search-index.js",
  dataScript(
    "docsSearchIndex",
    searchIndex(guides, operations).map((entry) => {
      const file = pageOf.get(entry.route);
      if (!file) throw new Error(`search links to #${entry.route}, which no page has`);
      return { ...entry, href: `${file}#${entry.route}` };
    }),
  ),
);
copyFileSync(source, join(out, "openapi.json"));
mkdirSync(join(out, "postman"), { recursive: true });
for (const name of readdirSync("generated/postman")) copyFileSync(join("generated/postman", name), join(out, "postman", name));
write("llms.txt", llmsTxt({ title, summary: plainText(document.info.summary ?? title), version, lead: plainText(lead), servers, guides, operations }));
for (const guide of guides) write(guideMarkdownFile(guide), guideMarkdown(guide));
for (const operation of operations)
  write(
    operationMarkdownFile(operation),
    operationMarkdown(operation, version, production, samples.get(operation.operationId)!, history.operations[`${operation.method} ${operation.path}`]),
  );

// Precompressed copies: a static server that serves them (nginx gzip_static/brotli_static,
// Caddy's precompressed) sends each file at a fraction of its size without compressing per request.
const files = (dir: string): string[] => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
const kB = (bytes: number) => `${(bytes / 1000).toFixed(0)} kB`;
const sizes = new Map<string, { raw: number; gz: number; br: number }>();
for (const file of files(out)) {
  const raw = readFileSync(file);
  const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
  const gz = gzipSync(raw, { level: 9 });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gz);
  sizes.set(relative(out, file), { raw: raw.length, gz: gz.length, br: br.length });
}
const sum = (names: string[]) =>
  names.reduce(
    (total, name) => {
      const size = sizes.get(name)!;
      return { raw: total.raw + size.raw, gz: total.gz + size.gz, br: total.br + size.br };
    },
    { raw: 0, gz: 0, br: 0 },
  );
const line = (label: string, size: { raw: number; gz: number; br: number }) =>
  console.log(`${label.padEnd(22)} ${kB(size.raw).padStart(8)} raw ${kB(size.gz).padStart(8)} gzip ${kB(size.br).padStart(8)} brotli`);
for (const name of [...pages.map((p) => p.file), "docs.js", "console.js", "console-data.js", "samples.js", "search.js", "search-index.js", "openapi.json"])
  line(name, sizes.get(name)!);
line("first view (index.html, docs.js)", sum(["index.html", "docs.js"]));
line("whole site", sum([...sizes.keys()]));
