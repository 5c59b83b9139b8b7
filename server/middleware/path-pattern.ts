// Regular expressions built from text the document or configuration gives (path templates,
// CORS origins), written once so every builder escapes the same characters.

/** `text` with every character a regular expression treats specially escaped. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `/v1` + `/widgets/{id}` → `^/v1/widgets/([^/]+)/?$` (one segment per parameter, not empty; captured in template order). */
export function pathPattern(basePath: string, template: string): RegExp {
  const source = (basePath + template)
    .split(/(\{[^}/]+\})/)
    .map((part) => (/^\{[^}/]+\}$/.test(part) ? "([^/]+)" : escapeRegExp(part)))
    .join("");
  return new RegExp(`^${source}/?$`);
}
