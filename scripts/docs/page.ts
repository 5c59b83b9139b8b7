// The docs page, index.html: the guides and the whole reference as static HTML, written at
// build time, so a reader sees Getting started or a linked operation as soon as the HTML has
// arrived (no script renders it). Its stylesheet is inlined (one request less before the first
// paint) and allowed by its hash in the Content-Security-Policy; docs.js (deferred) only wires
// the pickers, the server choice, the phone menu and loads the console and search when the
// reader opens them.
import { createHash } from "node:crypto";
import { escapeHtml, renderMarkdown, type Section } from "./markdown.js";
import type { History } from "./history.js";
import type { Server, Shared, tagsOf } from "./operation.js";
import { operationHtml, sharedHtml } from "./operation-html.js";
import type { Sample } from "./samples.js";

/** Where the console and the samples start: the local mock `npx authsvc-api mock` serves. */
export const mockServer = "http://127.0.0.1:4010/v1";

/** Files of the site the page links to (built beside it). */
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

export interface PageInput {
  title: string;
  summary: string;
  version: string;
  /** The introduction's text before its first section. */
  lead: string;
  guides: Section[];
  tags: Tag[];
  samples: Map<string, Sample[]>;
  history: History;
  shared: Shared;
  servers: Server[];
  css: string;
}

function sidebar(input: PageInput): string {
  const guides = input.guides.map((g) => `<li><a href="#${escapeHtml(g.id)}">${escapeHtml(g.title)}</a></li>`).join("");
  const tags = input.tags
    .map(
      (tag) =>
        `<li><a class="nav-tag" href="#${escapeHtml(tag.route)}">${escapeHtml(tag.name)}</a><ul>${tag.operations
          .map(
            (o) =>
              `<li><a href="#${escapeHtml(o.route)}"><span class="method method-${o.method.toLowerCase()}">${o.method}</span> <span class="nav-summary">${escapeHtml(o.summary)}</span></a></li>`,
          )
          .join("")}</ul></li>`,
    )
    .join("");
  const shared = `<li><a class="nav-tag" href="#models">Shared by many responses</a></li>`;
  const servers = input.servers.map((s) => `<option value="${escapeHtml(s.url)}">${escapeHtml(s.description)}</option>`).join("");
  return `<nav id="sidebar" class="sidebar" aria-label="Contents">
<div class="server-choice" hidden><label for="server-picker">Server for samples and console</label><select id="server-picker">${servers}</select></div>
<p class="nav-heading" id="nav-guides">Guides</p><ul aria-labelledby="nav-guides">${guides}</ul>
<p class="nav-heading" id="nav-reference">Reference</p><ul class="nav-tags" aria-labelledby="nav-reference">${tags}${shared}</ul>
<p class="nav-heading" id="nav-downloads">Downloads</p><ul aria-labelledby="nav-downloads">${downloads.map((d) => `<li><a href="${d.href}">${escapeHtml(d.label)}</a></li>`).join("")}</ul>
</nav>`;
}

/** The version line: which release of the contract the page documents, and whether it carries changes not yet released. */
function versionLine(input: PageInput): string {
  const unreleased = Object.values(input.history.operations).some((o) => o.changes.some((c) => c.version === "Unreleased"));
  const released = input.history.releases.some((r) => r.version === input.version);
  return `<p class="documents">This page documents version <strong>${escapeHtml(input.version)}</strong> of the API${
    released ? ` (released ${escapeHtml(input.history.releases.find((r) => r.version === input.version)!.date)})` : ""
  }${unreleased ? ", with changes not yet released (marked <em>Unreleased</em> on their operations)" : ""}. Every release: <a href="#description/changelog">Changelog</a>.</p>`;
}

export function indexHtml(input: PageInput, csp: string): string {
  // Every heading id of the guides, so that two alike (a changelog's "Added") stay distinct.
  const ids = new Set(input.guides.map((g) => g.id));
  const guides = input.guides
    .map(
      (g) =>
        `<section class="guide" id="${escapeHtml(g.id)}" aria-labelledby="${escapeHtml(g.id)}/title">${guideHeading(g)}${renderMarkdown(g.markdown, { idPrefix: "description/", topLevel: 2, ids })}</section>`,
    )
    .join("\n");
  const reference = input.tags
    .map(
      (tag) =>
        `<section class="tag" id="${escapeHtml(tag.route)}" aria-labelledby="${escapeHtml(tag.route)}/title"><h2 id="${escapeHtml(tag.route)}/title">${escapeHtml(tag.name)}</h2>${tag.description ? renderMarkdown(tag.description) : ""}\n${tag.operations
          .map((o) => operationHtml(o, input.samples.get(o.operationId) ?? [], input.history.operations[`${o.method} ${o.path}`], input.shared))
          .join("\n")}</section>`,
    )
    .join("\n");
  const shared = `<section class="tag" id="models" aria-labelledby="models/title"><h2 id="models/title">Shared by many responses</h2><p>The error body and the headers that many answers carry, described once.</p>${sharedHtml(input.shared)}</section>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="description" content="${escapeHtml(input.summary)}">
<title>${escapeHtml(input.title)}</title>
<link rel="icon" href="favicon.svg" type="image/svg+xml">
<style>${input.css}</style>
<script src="docs.js" defer></script>
</head>
<body>
<a class="skip" href="#content">Skip to the content</a>
<header class="topbar">
<button type="button" class="menu-button" aria-controls="sidebar" aria-expanded="false" hidden>Menu</button>
<a class="brand" href="#top">${escapeHtml(input.title)}</a>
<span class="version-badge">v${escapeHtml(input.version)}</span>
<button type="button" class="search-button" aria-haspopup="dialog" hidden>Search <kbd>/</kbd></button>
</header>
<div class="layout">
${sidebar(input)}
<main id="content" tabindex="-1">
<header class="intro" id="top"><h1>${escapeHtml(input.title)}</h1>${versionLine(input)}${renderMarkdown(input.lead)}</header>
${guides}
${reference}
${shared}
</main>
</div>
</body>
</html>
`;
}

const guideHeading = (g: Section) =>
  `<h2 id="${escapeHtml(g.id)}/title">${escapeHtml(g.title)} <a class="anchor" href="#${escapeHtml(g.id)}" aria-label="Link to ${escapeHtml(g.title)}">#</a></h2>`;
