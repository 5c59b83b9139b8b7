// The page around Scalar's API reference (`@scalar/api-reference`, its standalone bundle),
// the docs site's renderer: its configuration and the HTML that loads it. What the page may
// do is said in three places that agree: the configuration (no fonts, telemetry or stored
// credentials), the Content-Security-Policy (scripts from the directory only, requests only
// to the document's servers and loopback) and test/docs/render.test.ts (which records every
// request the page makes).
import { AVAILABLE_CLIENTS } from "@scalar/types/snippetz";

/** The sample languages the page offers: each one is executed against the mock by test/docs/samples.test.ts. */
export const shownClients = ["shell/curl", "js/fetch", "python/python3", "go/native"] as const;

/** Where the console sends requests by default: the local mock `npx authsvc-api mock` serves. */
export const mockServer = "http://127.0.0.1:4010/v1";

/** Scalar's configuration for this page (createApiReference's second argument, minus the document). */
export function configuration(title: string) {
  return {
    // Scalar asks fonts.scalar.com for Inter and JetBrains Mono unless told not to; the
    // system's fonts are used instead, so nothing loads from elsewhere.
    withDefaultFonts: false,
    // Scalar reports usage to its servers by default (`telemetry: true` in 1.72).
    telemetry: false,
    // Credentials typed into the console stay in memory: not written to localStorage.
    persistAuth: false,
    // No "Open in API client" button: it opens client.scalar.com, another origin.
    hideClientButton: true,
    // No "Ask AI" (Scalar's hosted agent) and no MCP offer: both talk to Scalar's services.
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never",
    hiddenClients: AVAILABLE_CLIENTS.filter((client) => !(shownClients as readonly string[]).includes(client)),
    defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
    defaultOpenAllTags: true,
    documentDownloadType: "json",
    // The document's slug, the prefix of every id Scalar writes (docs.js builds the headings' ids from it).
    slug: "api-1",
    metaData: { title },
    favicon: "favicon.svg",
    authentication: { preferredSecurityScheme: "bearerAuth" },
  };
}

/**
 * The Content-Security-Policy of the page: scripts only from the directory (no inline script,
 * so a `<script>` or `onerror=` that slipped through Markdown cannot run), no frames, no
 * plugins, no form posts, and requests (the console's) only to the document's servers and
 * loopback. Scalar injects its styles as `<style>` elements, hence 'unsafe-inline' for styles
 * only; images are the favicon and data: URIs.
 */
export function contentSecurityPolicy(servers: string[]): string {
  const origins = [...new Set(servers.map((url) => new URL(url).origin))];
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self' ${origins.join(" ")} http://127.0.0.1:* http://localhost:*`,
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * index.html: the document inlined as JSON data (a page opened from disk cannot fetch a file
 * beside it), read by docs.js, which starts Scalar (scalar.js); search.js adds the guides'
 * text to Scalar's search. `<` is escaped in the JSON so
 * no text of the document can close the data element. Until Scalar has run (seconds on a slow
 * phone: it renders nothing before) the reader sees the title and a line saying it loads;
 * docs.js removes that shell once Scalar has rendered (beside #app, not in it: Scalar would try
 * to hydrate markup inside #app and report a mismatch).
 */
export function indexHtml(options: { title: string; description: string; csp: string; document: unknown }): string {
  const data = JSON.stringify(options.document).replace(/</g, "\\u003c");
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeHtml(options.csp)}">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <meta name="description" content="${escapeHtml(options.description)}">
  <title>${escapeHtml(options.title)}</title>
  <link rel="icon" href="favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="docs.css">
</head>
<body>
  <noscript><p>This reference needs JavaScript. The document itself is <a href="openapi.json" download>openapi.json</a>.</p></noscript>
  <main class="docs-shell" id="docs-shell"><h1>${escapeHtml(options.title)}</h1><p>${escapeHtml(options.description)}</p><p>Loading the reference…</p></main>
  <div id="app"></div>
  <script id="openapi-document" type="application/json">${data}</script>
  <script id="scalar-configuration" type="application/json">${JSON.stringify(configuration(options.title)).replace(/</g, "\\u003c")}</script>
  <script src="scalar.js"></script>
  <script src="docs.js"></script>
  <script src="search.js"></script>
</body>
</html>
`;
}
