// Every labelled change of the corpus is classified as labelled, names its rule, and points
// at an existing node on both sides. The identity diff finds nothing.
import pointer from "json-pointer";
import { describe, expect, it } from "vitest";
import { diffDocuments } from "../../scripts/diff/index.js";
import { doc } from "../support/document.js";
import { corpus } from "./corpus.js";

describe("the labelled corpus", () => {
  it("holds at least 40 changes with distinct names", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    expect(new Set(corpus.map((c) => c.name)).size).toBe(corpus.length);
  });

  it("the unchanged document differs in nothing", () => {
    expect(diffDocuments(doc, structuredClone(doc)).changes).toEqual([]);
  });

  it.each(corpus)("$name: classified as labelled", ({ breaking, rule, change, prepare }) => {
    const base = structuredClone(doc);
    prepare?.(base);
    const head = structuredClone(base);
    change(head);
    const result = diffDocuments(base, head);
    const summary = result.changes.map((c) => `${c.breaking ? "BREAKING" : "ok"} ${c.rule} ${c.base} → ${c.head}`);
    if (rule === null) expect(summary).toEqual([]);
    else expect(summary.join("\n")).toContain(` ${rule} `);
    expect(result.breaking > 0, summary.join("\n")).toBe(breaking);
    expect(result.failed).toBe(breaking);
    for (const c of result.changes) {
      expect(pointer.has(base, c.base), `base pointer ${c.base}`).toBe(true);
      expect(pointer.has(head, c.head), `head pointer ${c.head}`).toBe(true);
    }
  });
});
