// The docs build's Markdown and the pieces it is assembled from, in-process (milliseconds):
// what a careless hand might paste into a description is shown as text, never run; inline
// code breaks only between its words; links to the repository give way to their text while
// links to the site's own files stay; the Clients section quotes the peer section of
// docs/document.md. (test/docs/render.test.ts checks the built pages in Chromium.)
import { describe, expect, it } from "vitest";
import { clientsMarkdown, peerSection } from "../../scripts/docs/clients.js";
import { inlineCode, renderMarkdown, splitSections } from "../../scripts/docs/markdown.js";
import { linkAcrossPages } from "../../scripts/docs/page.js";

describe("the docs page's Markdown", () => {
  it("shows raw HTML as text and refuses script links: nothing of a description can run", () => {
    const hostile = [
      `<script>document.title = "pwned"</script>`,
      `<iframe srcdoc="<script>parent.x = 1</script>"></iframe>`,
      `<img src="x" onerror="document.title = 'pwned'">`,
      `<svg><script>alert(1)</script></svg>`,
      `[markdown link](javascript:alert(1))`,
      `[data link](data:text/html,<script>alert(1)</script>)`,
    ].join("\n\n");
    const html = renderMarkdown(hostile);
    expect(html).not.toMatch(/<(script|iframe|img|svg)\b/);
    expect(html).not.toMatch(/href="(javascript|data):/);
    expect(html).toContain("&lt;script&gt;");
  });

  it("writes inline code as unbreakable words, a long one breakable only where its own words meet", () => {
    expect(inlineCode("validation_failed")).toBe('<code><span class="w">validation_failed</span></code>');
    expect(inlineCode("X-Api-Key: <API key>")).toBe('<code><span class="w">X-Api-Key:</span> <span class="w">&lt;API</span> <span class="w">key&gt;</span></code>');
    expect(inlineCode("FindEncryptionReportsInvertedDatesProblem")).toBe(
      '<code><span class="w">Find</span><wbr><span class="w">Encryption</span><wbr><span class="w">Reports</span><wbr><span class="w">Inverted</span><wbr><span class="w">Dates</span><wbr><span class="w">Problem</span></code>',
    );
    expect(inlineCode("#/paths/~1notifications/post/responses")).toContain('<span class="w">~1notifications/</span><wbr>');
  });

  it("keeps links to the site's own files and anchors, and drops links into the repository to their text", () => {
    const html = renderMarkdown(
      "[a](postman/collection.json) [b](llms.txt) [c](#description/limits) [d](https://example.com/) [e](docs/versioning.md) [f](../README.md)",
    );
    expect(html).toContain('<a href="postman/collection.json">a</a>');
    expect(html).toContain('<a href="llms.txt">b</a>');
    expect(html).toContain('<a href="#description/limits">c</a>');
    expect(html).toContain('<a href="https://example.com/">d</a>');
    expect(html).not.toContain("versioning.md");
    expect(html).not.toContain("README.md");
    expect(html).toMatch(/ e f<\/p>/);
  });

  it("gives headings the page's ids, two alike distinct, and splits a text at its ## headings outside code", () => {
    const ids = new Set<string>();
    const html = renderMarkdown("### Added\n\ntext\n\n### Added\n", { idPrefix: "description/", topLevel: 2, ids });
    expect(html).toContain('<h3 id="description/added">');
    expect(html).toContain('<h3 id="description/added-2">');
    const { lead, sections } = splitSections("Lead.\n\n## One\n\n```sh\n## not a heading\n```\n\n### Part\n\n## Two\n", "description/");
    expect(lead.trim()).toBe("Lead.");
    expect(sections.map((s) => [s.title, s.id, s.subsections])).toEqual([
      ["One", "description/one", ["Part"]],
      ["Two", "description/two", []],
    ]);
  });

  it("resolves links between pages, and refuses a link to an id no page has", () => {
    const pages = [
      { file: "index.html", html: '<h2 id="description/limits">Limits</h2><a href="#tag/x">x</a>' },
      { file: "x.html", html: '<section id="tag/x"><a href="#description/limits">limits</a><a href="#tag/x">self</a></section>' },
    ];
    expect(linkAcrossPages(pages).map((p) => p.html)).toEqual([
      '<h2 id="description/limits">Limits</h2><a href="x.html#tag/x">x</a>',
      '<section id="tag/x"><a href="index.html#description/limits">limits</a><a href="#tag/x">self</a></section>',
    ]);
    expect(() => linkAcrossPages([{ file: "a.html", html: '<a href="#nowhere">?</a>' }])).toThrow(/#nowhere/);
  });
});

describe("the Clients section", () => {
  const documentMd =
    "# The document\n\n## Layout\n\ntext\n\n## Peer tools proven in CI\n\n### orval\n\n```sh\nnpx orval --config x\n## not a heading\n```\n\n## Next\n\nafter\n";

  it("quotes the peer section of docs/document.md, its headings under the Clients section's", () => {
    expect(peerSection(documentMd)).toBe("#### orval\n\n```sh\nnpx orval --config x\n## not a heading\n```");
    expect(clientsMarkdown("Before.\n\n<!-- peers -->\n\nAfter.", documentMd)).toContain("npx orval --config x");
  });

  it("points to docs/document.md while it has no peer section, and refuses a template without its marker", () => {
    expect(peerSection("# Doc\n\n## Layout\n")).toBeUndefined();
    expect(clientsMarkdown("<!-- peers -->", "# Doc\n")).toContain("docs/document.md");
    expect(() => clientsMarkdown("no marker", documentMd)).toThrow(/peers/);
  });
});
