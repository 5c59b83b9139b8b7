// The contract diff as a handler sees it: which operations two bundled documents add,
// remove or change in what a handler reads or returns (its method and path, parameters,
// request body, success statuses with their bodies and headers). `authsvc-api stubs`
// reports it after a contract update. Dependency-free and synchronous, unlike `redocly diff`
// (scripts/diff/), which a production install of the server package does not carry: both
// documents are compared structurally, each operation's parts with every `$ref` inlined and
// the single-member `allOf` folded (fold-all-of.ts, as the release diff does), annotations
// (descriptions, examples, titles, `x-` extensions) left out: a handler need not follow them.
import { foldSingleAllOf, type Json } from "./fold-all-of.js";
import { deref, operationEntries } from "./walk.js";

export interface OperationChange {
  operationId: string;
  kind: "added" | "removed" | "changed";
  /** `GET /webhooks/{id}` (the head's, for a removed operation the base's). */
  operation: string;
  /** For `changed`: what changed, e.g. `200 body: result.label added`; at most `maxDetails` and a count of the rest. */
  details: string[];
}

const maxDetails = 6;
const annotations = new Set(["description", "summary", "title", "example", "examples", "externalDocs", "$comment", "deprecated", "operationId", "tags"]);
// Keywords whose object's keys are names (a property called `description` is not an annotation).
const namedMaps = new Set(["properties", "patternProperties", "$defs", "dependentSchemas", "content", "headers"]);

/**
 * How much inlining one document may take. A `$ref` used twice is copied twice, so a
 * document whose references fan out (each schema naming the next twice, 22 deep) would
 * inline into millions of nodes: a document from outside the package (a stubs directory's
 * `.contract.json`) is refused instead. The package's own document takes 2,591 nodes
 * and 18 levels.
 */
export const inlineBudget = { nodes: 200_000, depth: 128 } as const;

/** A document whose `$ref`s inline past inlineBudget. */
export class InlineBudgetExceeded extends Error {
  override name = "InlineBudgetExceeded";
}

/** `node` with every local `$ref` inlined (a recursive one left as is) and annotations dropped, within `left` nodes. */
function inline(document: unknown, node: unknown, left: { nodes: number }, stack: string[] = [], names = false, depth = 0): Json {
  if (--left.nodes < 0) throw new InlineBudgetExceeded(`its $refs inline to more than ${inlineBudget.nodes} nodes (a $ref fan-out)`);
  if (depth > inlineBudget.depth) throw new InlineBudgetExceeded(`its $refs inline deeper than ${inlineBudget.depth} levels`);
  if (Array.isArray(node)) return node.map((item) => inline(document, item, left, stack, false, depth + 1));
  if (node === null || typeof node !== "object") return node as Json;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === "string") {
    if (stack.includes(ref)) return { $ref: ref };
    return inline(document, deref(document, { $ref: ref }), left, [...stack, ref], false, depth + 1);
  }
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if (!names && (annotations.has(key) || key.startsWith("x-"))) continue;
    out[key] = inline(document, value, left, stack, !names && namedMaps.has(key), depth + 1);
  }
  return out;
}

interface Shape {
  operation: string;
  parts: Map<string, Json>;
}

/** What a handler of each operation follows, keyed by operationId. */
function shapes(document: unknown): Map<string, Shape> {
  const result = new Map<string, Shape>();
  const left = { nodes: inlineBudget.nodes };
  const canonical = (node: unknown) => foldSingleAllOf(inline(document, node, left));
  for (const { path, method, operation } of operationEntries(document as { paths?: Record<string, unknown> })) {
    if (!operation.operationId) continue;
    const parts = new Map<string, Json>();
    // Parameters of the path item and of the operation, by where and name.
    const parameters = [...((document as any).paths[path].parameters ?? []), ...(operation.parameters ?? [])].map((p: unknown) => deref(document, p));
    for (const parameter of parameters) parts.set(`${parameter.in} parameter ${parameter.name}`, canonical(parameter));
    if (operation.requestBody) parts.set("request body", canonical(operation.requestBody));
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (/^2\d\d$/.test(status)) parts.set(`${status} response`, canonical(response));
    }
    result.set(operation.operationId, { operation: `${method.toUpperCase()} ${path}`, parts });
  }
  return result;
}

/** `content/application~1json/schema/properties/result/properties/label` → `result.label`, shortened for a reader. */
function where(path: string[]): string {
  const out: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    if (segment === "content" || segment === "schema") continue;
    if (/^[a-z]+\/[\w.+-]+$/.test(segment) && path[i - 1] === "content") continue; // the media type
    if (segment === "properties" && i + 1 < path.length) {
      out.push(`${out.length > 0 && !out[out.length - 1]!.endsWith("[]") ? "." : ""}${path[++i]}`);
    } else if (segment === "items") out.push("[]");
    else out.push(`${out.length > 0 ? " " : ""}${segment}`);
  }
  return out.join("");
}

/** Every place two canonical parts differ: `<where> added|removed|changed`. */
function differences(base: Json | undefined, head: Json | undefined, path: string[] = []): string[] {
  const isObject = (value: unknown): value is { [key: string]: Json } => value !== null && typeof value === "object" && !Array.isArray(value);
  if (isObject(base) && isObject(head)) {
    const keys = [...new Set([...Object.keys(base), ...Object.keys(head)])];
    return keys.flatMap((key) => {
      if (!(key in head)) return [`${where([...path, key])} removed`];
      if (!(key in base)) return [`${where([...path, key])} added`];
      return differences(base[key], head[key], [...path, key]);
    });
  }
  if (Array.isArray(base) && Array.isArray(head) && path[path.length - 1] !== "required" && path[path.length - 1] !== "enum" && base.length === head.length) {
    return base.flatMap((item, index) => differences(item, head[index], [...path, String(index)]));
  }
  return JSON.stringify(base) === JSON.stringify(head) ? [] : [`${where(path)} changed${describeValues(base, head)}`];
}

/** What changed in a value: `: + label` for a set (`required`, `enum`), `: 10 → 20` when short. */
function describeValues(base: Json | undefined, head: Json | undefined): string {
  const scalars = (value: Json | undefined): value is (string | number)[] =>
    Array.isArray(value) && value.every((item) => typeof item === "string" || typeof item === "number");
  if (scalars(base) && scalars(head)) {
    const added = head.filter((item) => !base.includes(item)).map((item) => `+ ${item}`);
    const removed = base.filter((item) => !head.includes(item)).map((item) => `- ${item}`);
    if (added.length + removed.length > 0) return `: ${[...added, ...removed].join(", ")}`;
  }
  const text = (value: Json | undefined) => (value === undefined ? "none" : JSON.stringify(value));
  const both = `${text(base)} → ${text(head)}`;
  return both.length <= 80 ? `: ${both}` : "";
}

/** The operations `head` adds, removes or changes for a handler, compared with `base` (both bundled documents). */
export function operationChanges(base: unknown, head: unknown): OperationChange[] {
  const before = shapes(base);
  const after = shapes(head);
  const changes: OperationChange[] = [];
  for (const [operationId, shape] of after) {
    const old = before.get(operationId);
    if (!old) {
      changes.push({ operationId, kind: "added", operation: shape.operation, details: [] });
      continue;
    }
    const details = old.operation === shape.operation ? [] : [`moved from ${old.operation}`];
    for (const part of new Set([...old.parts.keys(), ...shape.parts.keys()])) {
      if (!shape.parts.has(part)) details.push(`${part} removed`);
      else if (!old.parts.has(part)) details.push(`${part} added`);
      else details.push(...differences(old.parts.get(part), shape.parts.get(part)).map((difference) => `${part}: ${difference}`));
    }
    if (details.length > 0) {
      const shown = details.length > maxDetails ? [...details.slice(0, maxDetails - 1), `… and ${details.length - maxDetails + 1} more`] : details;
      changes.push({ operationId, kind: "changed", operation: shape.operation, details: shown });
    }
  }
  for (const [operationId, shape] of before) if (!after.has(operationId)) changes.push({ operationId, kind: "removed", operation: shape.operation, details: [] });
  return changes;
}
