// The page's "Clients" section: the typed client, the Postman collection the site ships, the
// generators the project runs on the document in CI and llms.txt. Its text is
// openapi/docs-assets/clients.md; the generators are not restated there but quoted from the
// section of docs/document.md that the peer matrix keeps (the `##` section whose title names
// peers), so the page gives the commands CI runs, and no list of its own to keep in step.

/** The `## …peer…` section of docs/document.md, without its heading and with its headings moved under the Clients section; undefined without one. */
export function peerSection(documentMd: string): string | undefined {
  const lines = documentMd.split("\n");
  let fenced = false;
  let start = -1;
  let end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    if (/^(```|~~~)/.test(lines[i]!)) fenced = !fenced;
    if (fenced || !/^#{1,2} /.test(lines[i]!)) continue;
    if (start >= 0) {
      end = i;
      break;
    }
    if (/^## .*\bpeer/i.test(lines[i]!)) start = i;
  }
  if (start < 0) return undefined;
  let inFence = false;
  return lines
    .slice(start + 1, end)
    .map((line) => {
      if (/^(```|~~~)/.test(line)) inFence = !inFence;
      return !inFence && /^#{3,5} /.test(line) ? `#${line}` : line;
    })
    .join("\n")
    .trim();
}

const marker = "<!-- peers -->";

/** The Clients section's Markdown: the template with the peer section of docs/document.md in place of its marker. */
export function clientsMarkdown(template: string, documentMd: string): string {
  if (!template.includes(marker)) throw new Error(`openapi/docs-assets/clients.md has no ${marker} line`);
  const peers = peerSection(documentMd) ?? "The generators' commands are listed in the repository's docs/document.md.";
  return template.replace(marker, peers);
}
