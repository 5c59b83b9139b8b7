// Writes a document in one canonical spelling before `redocly diff` compares it: a schema
// whose `allOf` holds a single member, `{allOf: [X], description}`, validates exactly as
// `{...X, description}` does (JSON Schema 2020-12 applies a `$ref` beside other keywords),
// but Redocly reports the rewrite as `schema-combinator-changed` and, under a discriminator
// mapping, as a narrowed type. Folding such an `allOf` on both sides leaves only real
// changes. Members whose keywords collide with the parent's stay as they are.
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The document with every single-member `allOf` folded into its parent, where no keyword collides. */
export function foldSingleAllOf(node: Json): Json {
  if (Array.isArray(node)) return node.map(foldSingleAllOf);
  if (node === null || typeof node !== "object") return node;
  const folded: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) folded[key] = foldSingleAllOf(value);
  const members = folded.allOf;
  if (!Array.isArray(members) || members.length !== 1) return folded;
  const [member] = members;
  if (member === null || typeof member !== "object" || Array.isArray(member)) return folded;
  const { allOf: _, ...rest } = folded;
  if (Object.keys(member).some((key) => key in rest)) return folded;
  return { ...member, ...rest };
}

/** Writes the canonical spelling of a bundled document file into `dir` (as `<prefix>-<name>`); returns its path. */
export function canonicalCopy(file: string, dir: string, prefix: string): string {
  const copy = join(dir, `${prefix}-${basename(file)}`);
  writeFileSync(copy, JSON.stringify(foldSingleAllOf(JSON.parse(readFileSync(file, "utf8")) as Json)));
  return copy;
}
