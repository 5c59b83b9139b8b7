// The two sections the docs site adds after the document's introduction, rendered from the
// repository's own Markdown at build time (so there is no copy to keep in step):
// `## Changelog` from CHANGELOG.md, and `## Versions and deprecation` from the integrators'
// part of docs/versioning.md (its introduction and "The policy for integrators"; the rest is
// for maintainers: how the diff works and how a release is made).

/** The route Scalar gives a `## Title` section of the introduction (`#description/errors`). */
export const sectionRoute = (title: string) =>
  `#description/${title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")}`;

export const changelogTitle = "Changelog";
export const versioningTitle = "Versions and deprecation";
/** The sections of docs/versioning.md an integrator needs, by their `##` title. */
export const versioningParts = ["The policy for integrators"];

/** Lines of Markdown with every heading outside code fences moved `levels` deeper (at most ######). */
function deeper(markdown: string, levels: number): string {
  let fenced = false;
  return markdown
    .split("\n")
    .map((line) => {
      if (/^(```|~~~)/.test(line)) fenced = !fenced;
      const heading = !fenced && /^(#{1,6}) /.exec(line);
      return heading ? `${"#".repeat(Math.min(6, heading[1]!.length + levels))}${line.slice(heading[1]!.length)}` : line;
    })
    .join("\n");
}

/** A Markdown file without its `# Title` line. */
const body = (markdown: string) => markdown.replace(/^# .*\n+/, "");

/** The `## title` part of a Markdown file, up to the next `##` heading outside a code fence. */
function part(markdown: string, title: string): string {
  const lines = markdown.split("\n");
  const start = lines.indexOf(`## ${title}`);
  if (start < 0) throw new Error(`docs/versioning.md has no "## ${title}" section`);
  let fenced = false;
  let end = lines.length;
  for (let i = start + 1; i < lines.length; i++) {
    if (/^(```|~~~)/.test(lines[i]!)) fenced = !fenced;
    if (!fenced && /^#{1,2} /.test(lines[i]!)) {
      end = i;
      break;
    }
  }
  return lines.slice(start, end).join("\n").trimEnd();
}

/** The Markdown appended to the introduction: both sections, links between them rewritten to routes. */
export function appendedSections(changelog: string, versioning: string): string {
  const intro = body(versioning).split(/\n## /)[0]!.trimEnd();
  // The sidebar lists every heading of the introduction in the sidebar: the policy comes without
  // its own heading, each release of the changelog is one entry (h3) and its kinds of change
  // (Added, Fixed, …) are bold lines, not headings, so they are not listed once per release.
  const policy = versioningParts.map((title) => part(versioning, title).replace(/^## .*\n+/, "")).join("\n\n");
  const changes = deeper(body(changelog), 1)
    .replace(/^#### (.*)$/gm, "**$1**")
    .replace(/\[docs\/versioning\.md\]\(docs\/versioning\.md\)/g, `[${versioningTitle}](${sectionRoute(versioningTitle)})`);
  return [`## ${changelogTitle}`, changes.trimEnd(), `## ${versioningTitle}`, intro, policy].join("\n\n") + "\n";
}
