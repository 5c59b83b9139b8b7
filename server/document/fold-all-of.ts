// A schema whose `allOf` holds a single member, `{allOf: [X], description}`, validates exactly
// as `{...X, description}` does (JSON Schema 2020-12 applies a `$ref` beside other keywords):
// both diffs of the project (the release diff's canonical spelling, scripts/diff/canonical.ts,
// and the handler's view of a contract change, operation-changes.ts) fold it before comparing.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

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
