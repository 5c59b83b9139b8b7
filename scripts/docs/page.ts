// The docs site's pages, written at build time as static HTML, so a reader sees Getting
// started or a linked operation as soon as its page has arrived (no script renders it):
// index.html (the introduction and Getting started), one page per further guide
// (`clients.html`, `limits.html`, … `changelog.html`), one per tag of the document with its
// operations (`notifications.html`, …), models.html (what many responses share). Small pages
// keep a slow phone's main thread free: one page of everything blocked it for over a second.
// Every page carries the same menu. Its stylesheet is inlined (one request less before the first paint) and allowed
// by its hash in the Content-Security-Policy; docs.js (deferred) only wires the pickers, the
// server choice, the phone menu and loads the console and search when the reader opens them.
import { createHash } from "node:crypto";
import type { History } from "./history.js";
import { escapeHtml, renderMarkdown, type Section } from "./markdown.js";
import type { Server, Shared, tagsOf } from "./operation.js";
import { operationHtml, sharedHtml } from "./operation-html.js";
import type { Sample } from "./samples.js";

/** Where the console and the samples start: the local mock `npx authsvc-api mock` serves. */
export const mockServer = "http://127.0.0.1:4010/v1";

/** Files of the site the menu links to (built beside the pages). */
export const downloads = [
  { href: "openapi.json", label: "OpenAPI document (openapi.json)" },
  { href: "postman/collection.json", label: "Postman collection" },
  { href: "llms.txt", label: "llms.txt (Markdown for assistants)" },
] as const;

/**
 * The Content-Security-Policy: scripts only from the directory (no inline script, so nothing
 * that slipped into Markdown could run), the one inline stylesheet by its hash, no frames,
 * plugins or form posts, and requests (the console's) only to the document's servers and
 * loopback.
 */
export function contentSecurityPolicy(servers: string[], css: string): string {
  const origins = [...new Set(servers.map((url) => new URL(url).origin))];
  const hash = createHash("sha256").update(css).digest("base64");
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'sha256-${hash}'`,
    "img-src 'self' data:",
    `connect-src 'self' ${origins.join(" ")} http://127.0.0.1:* http://localhost:*`,
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

type Tag = ReturnType<typeof tagsOf>[number];

export interface SiteInput {
  title: string;
  summary: string;
  version: string;
  /** The introduction's text before its first section. */
  lead: string;
  /** The guides, in reading order: the first shares index.html with the introduction. */
  guides: Section[];
  tags: Tag[];
  samples: Map<string, Sample[]>;
  history: History;
  shared: Shared;
  servers: Server[];
  css: string;
  csp: string;
}

/** A page of the site: its file, its title (the h1 and the window's), and its content. */
export interface Page {
  file: string;
  title: string;
  main: string;
}

export const tagFile = (tag: Tag) => `${tag.route.replace(/^tag\//, "")}.html`;
export const modelsFile = "models.html";
/** The page of a guide: index.html for the first, `<slug>.html` (`limits.html`) for the others. */
export const guideFile = (guides: Section[], guide: Section) => (guide === guides[0] ? "index.html" : `${guide.id.replace(/^description\//, "")}.html`);

function sidebar(site: SiteInput, current: string): string {
  const link = (file: string, id: string, content: string, className = "") =>
    `<a${className ? ` class="${className}"` : ""} href="${file}#${escapeHtml(id)}"${file === current && className === "nav-page" ? ' aria-current="page"' : ""}>${content}</a>`;
  const guides = site.guides.map((g) => `<li>${link(guideFile(site.guides, g), g.id, escapeHtml(g.title), "nav-page")}</li>`).join("");
  const tags = site.tags
    .map(
      (tag) =>
        `<li>${link(tagFile(tag), tag.route, escapeHtml(tag.name), "nav-page")}<ul>${tag.operations
          .map(
            (o) =>
              `<li>${link(tagFile(tag), o.route, `<span class="method method-${o.method.toLowerCase()}">${o.method}</span> <span class="nav-summary">${escapeHtml(o.summary)}</span>`)}</li>`,
          )
          .join("")}</ul></li>`,
    )
    .join("");
  const servers = site.servers.map((s) => `<option value="${escapeHtml(s.url)}">${escapeHtml(s.description)}</option>`).join("");
  return `<nav id="sidebar" class="sidebar" aria-label="Contents">
<div class="server-choice" hidden><label for="server-picker">Server for samples and console</label><select id="server-picker">${servers}</select></div>
<p class="nav-heading" id="nav-guides">Guides</p><ul aria-labelledby="nav-guides">${guides}</ul>
<p class="nav-heading" id="nav-reference">Reference</p><ul class="nav-tags" aria-labelledby="nav-reference">${tags}<li>${link(modelsFile, "models", "Shared by many responses", "nav-page")}</li></ul>
<p class="nav-heading" id="nav-downloads">Downloads</p><ul aria-labelledby="nav-downloads">${downloads.map((d) => `<li><a href="${d.href}">${escapeHtml(d.label)}</a></li>`).join("")}</ul>
</nav>`;
}

/** Which release of the contract the site documents, and whether it carries changes not yet released. */
function versionLine(site: SiteInput): string {
  const unreleased = Object.values(site.history.operations).some((o) => o.changes.some((c) => c.version === "Unreleased"));
  const release = site.history.releases.find((r) => r.version === site.version);
  return `<p class="documents">These pages document version <strong>${escapeHtml(site.version)}</strong> of the API${
    release?.date ? ` (released ${escapeHtml(release.date)})` : ""
  }${unreleased ? ", with changes not yet released (marked <em>Unreleased</em> on their operations)" : ""}. Every release: <a href="#description/changelog">Changelog</a>.</p>`;
}

const guideHeading = (g: Section, level: 1 | 2) =>
  `<h${level} id="${escapeHtml(g.id)}/title">${escapeHtml(g.title)} <a class="anchor" href="#${escapeHtml(g.id)}" aria-label="Link to ${escapeHtml(g.title)}">#</a></h${level}>`;

/** A guide as a section, its heading at `level`; `ids` are the page's ids so far (two headings alike, a changelog's "Added", stay distinct). */
function guideHtml(g: Section, level: 1 | 2, ids: Set<string>): string {
  ids.add(g.id);
  return `<section class="guide" id="${escapeHtml(g.id)}" aria-labelledby="${escapeHtml(g.id)}/title">${guideHeading(g, level)}${renderMarkdown(g.markdown, { idPrefix: "description/", topLevel: level + 1, ids })}</section>`;
}

/** Links to the guides before and after this one, in reading order. */
function guideSteps(guides: Section[], i: number): string {
  const step = (g: Section | undefined, label: string) =>
    g ? `<a href="${guideFile(guides, g)}#${escapeHtml(g.id)}">${label}: ${escapeHtml(g.title)}</a>` : "<span></span>";
  return `<nav class="steps" aria-label="Guides before and after">${step(guides[i - 1], "Previous")}${step(guides[i + 1], "Next")}</nav>`;
}

/** Every page of the site, its content written; `pageHtml` wraps each in the shell. */
export function pagesOf(site: SiteInput): Page[] {
  return [
    ...site.guides.map((g, i) => ({
      file: guideFile(site.guides, g),
      title: i === 0 ? site.title : g.title,
      main:
        i === 0
          ? `<header class="intro"><h1>${escapeHtml(site.title)}</h1>${versionLine(site)}${renderMarkdown(site.lead)}</header>\n${guideHtml(g, 2, new Set())}${guideSteps(site.guides, i)}`
          : `${guideHtml(g, 1, new Set())}${guideSteps(site.guides, i)}`,
    })),
    ...site.tags.map((tag) => ({
      file: tagFile(tag),
      title: tag.name,
      main: `<header class="tag" id="${escapeHtml(tag.route)}"><h1>${escapeHtml(tag.name)}</h1>${tag.description ? renderMarkdown(tag.description) : ""}</header>\n${tag.operations
        .map((o) => operationHtml(o, site.samples.get(o.operationId) ?? [], site.history.operations[`${o.method} ${o.path}`], site.shared))
        .join("\n")}`,
    })),
    {
      file: modelsFile,
      title: "Shared by many responses",
      main: `<header class="tag" id="models"><h1>Shared by many responses</h1><p>The error body and the headers that many answers carry, described once and linked from each response.</p></header>${sharedHtml(site.shared)}`,
    },
  ];
}

/** A page in the site's shell: head, top bar, content, menu. */
export function pageHtml(site: SiteInput, page: Page): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(site.csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="description" content="${escapeHtml(site.summary)}">
<title>${escapeHtml(page.title === site.title ? site.title : `${page.title} · ${site.title}`)}</title>
<link rel="icon" href="favicon.svg" type="image/svg+xml">
<style>${site.css}</style>
<script src="docs.js" defer></script>
</head>
<body>
<a class="skip" href="#sidebar">Skip to the contents menu</a>
<header class="topbar">
<a class="menu-button" href="#sidebar" aria-controls="sidebar">Menu</a>
<a class="brand" href="index.html">${escapeHtml(site.title)}</a>
<span class="version-badge">v${escapeHtml(site.version)}</span>
<button type="button" class="search-button" aria-haspopup="dialog" hidden>Search <kbd>/</kbd></button>
</header>
<div class="layout">
<main id="content">
${page.main}
</main>
${sidebar(site, page.file)}
</div>
</body>
</html>
`;
}

/** The page each id of the site is on (the first, should two pages have one alike). */
export function pageOfIds(pages: { file: string; html: string }[]): Map<string, string> {
  const home = new Map<string, string>();
  for (const page of pages) for (const [, id] of page.html.matchAll(/\sid="([^"]+)"/g)) if (!home.has(id!)) home.set(id!, page.file);
  return home;
}

/**
 * Links between pages: a link to `#id` whose id is on another page of the site becomes
 * `page.html#id` (a description links `#description/authentication` wherever it is shown).
 * Throws for a link to an id no page has.
 */
export function linkAcrossPages(pages: { file: string; html: string }[]): { file: string; html: string }[] {
  const home = pageOfIds(pages);
  return pages.map((page) => ({
    file: page.file,
    html: page.html.replace(/href="#([^"]*)"/g, (whole, id: string) => {
      if (id === "" || page.html.includes(` id="${id}"`)) return whole;
      const file = home.get(id);
      if (!file) throw new Error(`${page.file} links to #${id}, which no page of the site has`);
      return `href="${file}#${id}"`;
    }),
  }));
}
