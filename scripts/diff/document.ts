// Locations in a bundled OpenAPI document: a node together with its JSON pointer (RFC 6901),
// so every reported change names where it is on both sides. Pointer syntax is json-pointer's.
import pointer from "json-pointer";

/** A node of a parsed document (the document is data, not typed code). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Node = any;

/** A node and the pointer it was found at. */
export interface Loc {
  node: Node;
  ptr: string;
}

/** The node under `keys` below `loc` (undefined node when absent), with its pointer. */
export function child(loc: Loc, ...keys: (string | number)[]): Loc {
  let node = loc.node;
  let ptr = loc.ptr;
  for (const key of keys) {
    node = node === null || typeof node !== "object" ? undefined : node[key];
    ptr += `/${pointer.escape(String(key))}`;
  }
  return { node, ptr };
}

/** Follows local `$ref`s to the node they name; the pointer becomes the target's. */
export function deref(doc: Node, loc: Loc): Loc {
  let current = loc;
  for (let hops = 0; isObject(current.node) && typeof current.node.$ref === "string"; hops++) {
    const ref: string = current.node.$ref;
    if (hops > 32 || !ref.startsWith("#")) throw new Error(`cannot follow $ref ${ref} at ${current.ptr}`);
    const ptr = decodeURIComponent(ref.slice(1));
    if (!pointer.has(doc, ptr)) throw new Error(`dangling $ref ${ref} at ${current.ptr}`);
    current = { node: pointer.get(doc, ptr), ptr };
  }
  return current;
}

export const isObject = (node: Node): boolean => node !== null && typeof node === "object" && !Array.isArray(node);

/** The component name a `$ref` points at (`#/components/schemas/Webhook` → `Webhook`), if any. */
export function refName(node: Node): string | undefined {
  return isObject(node) && typeof node.$ref === "string" ? node.$ref.split("/").pop() : undefined;
}
