// The page's Markdown (the document's descriptions, the changelog, the versioning policy, the
// Clients section) rendered to HTML at build time with markdown-it at its defaults, raw HTML
// off: a `<script>` or an `onerror=` in a description is shown as text, and markdown-it's own
// link check refuses `javascript:` and `data:` links. What the page adds to its output:
// headings with ids (the routes the page has always had: `#description/getting-started`),
// inline code that never breaks inside a word on a narrow screen, tables and code blocks
// that scroll sideways inside themselves instead of widening the page, and links to files of
// the repository (which the docs site does not carry) shown as their text.
import MarkdownIt from "markdown-it";

/** The id of a heading's text: lowercase, every run of other characters one `-`. */
export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

export const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * Inline code as HTML: each run without spaces is one unbreakable word (`.w`), so a line breaks
 * only at a space of the code (`RateLimit-Policy: "unlimited"; q=…`), never inside
 * `validation_failed` or at the hyphen of `X-Api-Key`.
 */
export const inlineCode = (text: string) =>
  `<code>${text
    .split(/( +)/)
    .map((part) => (part.trim() === "" ? part : word(part)))
    .join("")}</code>`;

/**
 * One word of code. A word too long for a phone's line (a JSON pointer of the changelog,
 * `#/paths/~1reports~1encryption/get/…`, an example's name `FindEncryptionReportsInvertedDatesProblem`)
 * may break where its own words meet: after a `/`, `_` or `.`, and where a capital starts
 * one (camelCase); never inside one of them. Shorter words never break.
 */
const wordBreaks = /(?<=[/_.])|(?<=[a-z0-9])(?=[A-Z])/;
const word = (text: string) =>
  text.length <= longWord
    ? `<span class="w">${escapeHtml(text)}</span>`
    : text
        .split(wordBreaks)
        .map((piece) => `<span class="w">${escapeHtml(piece)}</span>`)
        .join("<wbr>");
const longWord = 28;

/** A block of code: kept as written (no wrapping), scrolling sideways inside itself, reachable by keyboard. */
export const codeBlock = (text: string, language = "") =>
  `<pre class="code" tabindex="0"${language ? ` data-lang="${escapeHtml(language)}"` : ""}><code>${escapeHtml(text.replace(/\n$/, ""))}</code></pre>`;

export interface RenderOptions {
  /** The id prefix of headings (`description/`); headings get no id without it. */
  idPrefix?: string;
  /** The level the Markdown's `##` becomes (headings are shifted by the difference). */
  topLevel?: number;
  /** Ids already on the page: a heading whose id is taken gets `-2`, `-3`, …. */
  ids?: Set<string>;
}

const md = new MarkdownIt();
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));

md.renderer.rules.code_inline = (tokens, i) => inlineCode(tokens[i]!.content);
md.renderer.rules.fence = (tokens, i) => codeBlock(tokens[i]!.content, tokens[i]!.info.trim().split(/\s+/)[0]);
md.renderer.rules.code_block = (tokens, i) => codeBlock(tokens[i]!.content);
md.renderer.rules.table_open = () => '<div class="table-wrap" tabindex="0"><table>\n';
md.renderer.rules.table_close = () => "</table></div>\n";
/** Files the site itself ships, which its Markdown may link to (`postman/collection.json`, `llms.txt`, a page). */
const siteFile = /^(openapi\.json|llms\.txt|postman\/|guides\/|operations\/|[a-z0-9-]+\.html)/;
// A link into the repository (`docs/versioning.md`, `../README.md`) has no page here: its text stays, the link goes.
const isRepositoryLink = (href: string) => !/^(#|[a-z][a-z0-9+.-]*:)/i.test(href) && !siteFile.test(href);
md.renderer.rules.link_open = (tokens, i, options, env, self) => {
  const href = String(tokens[i]!.attrGet("href") ?? "");
  if (!isRepositoryLink(href)) return defaultLinkOpen(tokens, i, options, env, self);
  // Drop this link and its closing tag.
  let depth = 0;
  for (let j = i + 1; j < tokens.length; j++) {
    if (tokens[j]!.type === "link_open") depth++;
    if (tokens[j]!.type === "link_close" && depth-- === 0) {
      tokens[j]!.type = "text";
      tokens[j]!.content = "";
      break;
    }
  }
  return "";
};
type Tokens = Parameters<NonNullable<typeof md.renderer.rules.heading_open>>[0];
const headingText = (tokens: Tokens, open: number) => tokens[open + 1]!.children?.map((child) => child.content).join("") ?? "";
md.renderer.rules.heading_open = (tokens, i, _options, rawEnv) => {
  const env = rawEnv as RenderOptions | undefined;
  const token = tokens[i]!;
  const level = Math.min(6, Number(token.tag.slice(1)) + (env?.topLevel ?? 2) - 2);
  if (env?.idPrefix === undefined) return `<h${level}>`;
  const base = `${env.idPrefix}${slug(headingText(tokens, i))}`;
  let id = base;
  for (let n = 2; env.ids?.has(id); n++) id = `${base}-${n}`;
  env.ids?.add(id);
  token.meta = { id };
  return `<h${level} id="${escapeHtml(id)}">`;
};
md.renderer.rules.heading_close = (tokens, i, _options, rawEnv) => {
  const env = rawEnv as RenderOptions | undefined;
  const level = Math.min(6, Number(tokens[i]!.tag.slice(1)) + (env?.topLevel ?? 2) - 2);
  const open = tokens.findLastIndex((token, j) => j < i && token.type === "heading_open");
  const id = (tokens[open]!.meta as { id?: string } | null)?.id;
  const anchor = id === undefined ? "" : ` <a class="anchor" href="#${escapeHtml(id)}" aria-label="Link to ${escapeHtml(headingText(tokens, open))}">#</a>`;
  return `${anchor}</h${level}>\n`;
};

/** Markdown as HTML. */
export const renderMarkdown = (markdown: string, options: RenderOptions = {}): string => md.render(markdown, { ...options });

/** One line of Markdown as inline HTML (no paragraph around it). */
export const renderInline = (markdown: string): string => md.renderInline(markdown, {});

/** Markdown as plain text (for search and summaries): the words, without markup. */
export function plainText(markdown: string): string {
  const html = md.render(markdown, {});
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

export interface Section {
  title: string;
  /** The section's id, e.g. `description/getting-started`. */
  id: string;
  /** Its Markdown without the heading line. */
  markdown: string;
  /** Its `###` subsections' titles. */
  subsections: string[];
}

/** Markdown split at its `## ` headings outside code fences: the text before the first, and each section. */
export function splitSections(markdown: string, idPrefix: string): { lead: string; sections: Section[] } {
  const lines = markdown.split("\n");
  let fenced = false;
  const starts: number[] = [];
  lines.forEach((line, i) => {
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    if (!fenced && /^## /.test(line)) starts.push(i);
  });
  const lead = lines.slice(0, starts[0] ?? lines.length).join("\n");
  const sections = starts.map((start, n) => {
    const title = lines[start]!.slice(3).trim();
    const body = lines.slice(start + 1, starts[n + 1] ?? lines.length).join("\n");
    let inFence = false;
    const subsections = body.split("\n").flatMap((line) => {
      if (/^(```|~~~)/.test(line)) inFence = !inFence;
      return !inFence && /^### /.test(line) ? [line.slice(4).trim()] : [];
    });
    return { title, id: `${idPrefix}${slug(title)}`, markdown: body, subsections };
  });
  return { lead, sections };
}
