// Compares two schemas in the direction data flows. A request schema is what the client
// writes and the server accepts: narrowing it breaks clients. A response schema is what the
// server writes and the client reads: widening it (a new type, enum value, union branch,
// looser bound, a field gone or made optional) breaks clients; narrowing it does not.
import equal from "fast-deep-equal";
import { Collector } from "./collector.js";
import { child, refName, type Loc, type Node } from "./document.js";
import type { RuleId } from "./rules.js";
import { lowerBounds, typesOf, upperBounds, viewOf, type SchemaView } from "./view.js";

export type Direction = "request" | "response";

export interface Context {
  base: Node;
  head: Node;
  out: Collector;
  /** Schema pairs already compared for the current operation (cycles, shared components). */
  seen: Set<string>;
}

const show = (value: unknown): string => JSON.stringify(value);
const minus = <T>(a: T[], b: T[]): T[] => a.filter((x) => !b.some((y) => equal(x, y)));

/** Compares the schema at `b` (base) with the one at `h` (head); `label` names it for humans. */
export function compareSchemas(ctx: Context, dir: Direction, b: Loc, h: Loc, label: string): void {
  if (b.node === undefined || h.node === undefined) return;
  const bv = viewOf(ctx.base, b);
  const hv = viewOf(ctx.head, h);
  const key = `${dir}|${bv.ptr}|${hv.ptr}`;
  if (ctx.seen.has(key)) return;
  ctx.seen.add(key);
  const add = (rule: RuleId, message: string, bAt: string, hAt: string) => ctx.out.add(rule, `${label}: ${message}`, bAt, hAt);
  const req = dir === "request";

  compareTypes(bv, hv, req, add);
  compareValues(bv, hv, req, add);
  compareBounds(bv, hv, req, add);
  comparePatterns(bv, hv, req, add);

  const bf = bv.format?.value;
  const hf = hv.format?.value;
  if (bf !== hf) {
    const at = [bv.format?.at ?? bv.ptr, hv.format?.at ?? hv.ptr] as const;
    if (bf === undefined) add(req ? "request-format-changed" : "response-format-added", `format ${hf} added`, ...at);
    else if (hf === undefined) add(req ? "request-format-removed" : "response-format-changed", `format ${bf} removed`, ...at);
    else add(req ? "request-format-changed" : "response-format-changed", `format ${bf} became ${hf}`, ...at);
  }
  if (!equal(bv.default?.value, hv.default?.value)) {
    add(
      req ? "request-default-changed" : "response-default-changed",
      `default ${show(bv.default?.value)} became ${show(hv.default?.value)}`,
      bv.default?.at ?? bv.ptr,
      hv.default?.at ?? hv.ptr,
    );
  }
  for (const [keyword, h2] of hv.others) {
    const b2 = bv.others.get(keyword);
    if (!equal(b2?.value, h2.value)) add("schema-keyword-changed", `\`${keyword}\` changed`, b2?.at ?? bv.ptr, h2.at);
  }
  for (const [keyword, b2] of bv.others) {
    if (!hv.others.has(keyword)) add("schema-keyword-changed", `\`${keyword}\` removed`, b2.at, hv.ptr);
  }

  compareProperties(ctx, dir, bv, hv, label, add);
  if (req && !bv.closed && hv.closed) add("request-properties-closed", "unknown properties are now refused", bv.ptr, hv.closed);
  if (req && bv.closed && !hv.closed) add("request-properties-opened", "unknown properties are now accepted", bv.closed, hv.ptr);
  pairwise(bv.additional, hv.additional, (x, y) => compareSchemas(ctx, dir, x, y, `${label}{*}`));
  pairwise(bv.items, hv.items, (x, y) => compareSchemas(ctx, dir, x, y, `${label}[]`));
  compareUnions(ctx, dir, bv, hv, label, add);
  compareConditionals(ctx, dir, bv, hv, label, add);
}

type Add = (rule: RuleId, message: string, base: string, head: string) => void;

function compareTypes(bv: SchemaView, hv: SchemaView, req: boolean, add: Add): void {
  const bt = [...typesOf(bv)];
  const ht = [...typesOf(hv)];
  const removed = minus(bt, ht);
  const added = minus(ht, bt);
  if (removed.length === 0 && added.length === 0) return;
  const message = `type ${bt.length === 7 ? "any" : bt.join("|")} became ${ht.length === 7 ? "any" : ht.join("|")}`;
  const at = [bv.types?.at ?? bv.ptr, hv.types?.at ?? hv.ptr] as const;
  if (req) add(removed.length > 0 ? "request-type-changed" : "request-type-widened", message, ...at);
  else add(added.length > 0 ? "response-type-changed" : "response-type-narrowed", message, ...at);
}

function compareValues(bv: SchemaView, hv: SchemaView, req: boolean, add: Add): void {
  const b = bv.values;
  const h = hv.values;
  if (!b && !h) return;
  const at = [b?.at ?? bv.ptr, h?.at ?? hv.ptr] as const;
  if (!b) return add(req ? "request-enum-added" : "response-enum-added", `values restricted to ${show(h!.value)}`, ...at);
  if (!h) return add(req ? "request-enum-removed" : "response-enum-removed", `values no longer restricted to ${show(b.value)}`, ...at);
  const removed = minus(b.value, h.value);
  const added = minus(h.value, b.value);
  if (removed.length === 0 && added.length === 0) return;
  if (b.kind === "const" || h.kind === "const") {
    return add(req ? "request-const-changed" : "response-const-changed", `value ${show(b.value)} became ${show(h.value)}`, ...at);
  }
  if (req) {
    if (removed.length > 0) add("request-enum-value-removed", `enum values ${show(removed)} removed`, ...at);
    if (added.length > 0) add("request-enum-value-added", `enum values ${show(added)} added`, ...at);
  } else {
    if (added.length > 0) add("response-enum-value-added", `enum values ${show(added)} added`, ...at);
    if (removed.length > 0) add("response-enum-value-removed", `enum values ${show(removed)} removed`, ...at);
  }
}

function compareBounds(bv: SchemaView, hv: SchemaView, req: boolean, add: Add): void {
  const keys = [...upperBounds.map((k) => [k, 1] as const), ...lowerBounds.map((k) => [k, -1] as const)];
  for (const [keyword, sign] of keys) {
    const b = bv.bounds.get(keyword);
    const h = hv.bounds.get(keyword);
    if (b?.value === h?.value) continue;
    // sign 1: a smaller value (or a new bound) accepts less; sign -1: a larger one does.
    const tighter = b === undefined || (h !== undefined && (h.value - b.value) * sign < 0);
    const message = `${keyword} ${b?.value ?? "none"} became ${h?.value ?? "none"}`;
    const at = [b?.at ?? bv.ptr, h?.at ?? hv.ptr] as const;
    if (req) add(tighter ? "request-bound-tightened" : "request-bound-loosened", message, ...at);
    else add(tighter ? "response-bound-tightened" : "response-bound-loosened", message, ...at);
  }
}

function comparePatterns(bv: SchemaView, hv: SchemaView, req: boolean, add: Add): void {
  const b = bv.patterns.map((p) => p.value);
  const h = hv.patterns.map((p) => p.value);
  const removed = bv.patterns.filter((p) => !h.includes(p.value));
  const added = hv.patterns.filter((p) => !b.includes(p.value));
  if (removed.length === 0 && added.length === 0) return;
  const message = `pattern ${b.join(" & ") || "none"} became ${h.join(" & ") || "none"}`;
  const at = [removed[0]?.at ?? bv.ptr, added[0]?.at ?? hv.ptr] as const;
  if (removed.length > 0 && added.length > 0) add(req ? "request-pattern-changed" : "response-pattern-changed", message, ...at);
  else if (added.length > 0) add(req ? "request-pattern-added" : "response-pattern-added", message, ...at);
  else add(req ? "request-pattern-removed" : "response-pattern-changed", message, ...at);
}

function compareProperties(ctx: Context, dir: Direction, bv: SchemaView, hv: SchemaView, label: string, add: Add): void {
  const req = dir === "request";
  const names = new Set([...bv.properties.keys(), ...bv.required.keys(), ...hv.properties.keys(), ...hv.required.keys()]);
  for (const name of names) {
    const bProps = bv.properties.get(name) ?? [];
    const hProps = hv.properties.get(name) ?? [];
    const inBase = bProps.length > 0 || bv.required.has(name);
    const inHead = hProps.length > 0 || hv.required.has(name);
    const bReq = bv.required.has(name);
    const hReq = hv.required.has(name);
    const bAt = bProps[0]?.ptr ?? bv.required.get(name) ?? bv.propertiesAt;
    const hAt = hProps[0]?.ptr ?? hv.required.get(name) ?? hv.propertiesAt;
    const field = `property \`${name}\``;
    if (inBase && !inHead) {
      if (req) add("request-property-removed", `${field} removed`, bAt, hv.propertiesAt);
      else add("response-property-removed", `${field} removed`, bAt, hv.propertiesAt);
      continue;
    }
    if (!inBase && inHead) {
      if (req) add(hReq ? "request-required-property-added" : "request-property-added", `${hReq ? "required" : "optional"} ${field} added`, bv.propertiesAt, hAt);
      else add("response-property-added", `${field} added`, bv.propertiesAt, hAt);
      continue;
    }
    if (!bReq && hReq) {
      add(req ? "request-property-became-required" : "response-property-became-required", `${field} became required`, bv.required.get(name) ?? bAt, hv.required.get(name)!);
    } else if (bReq && !hReq) {
      add(req ? "request-property-became-optional" : "response-property-became-optional", `${field} became optional`, bv.required.get(name)!, hv.required.get(name) ?? hAt);
    }
    const bDeprecated = bProps.some((p) => viewOf(ctx.base, p).deprecated);
    const hDeprecated = hProps.find((p) => viewOf(ctx.head, p).deprecated);
    if (!bDeprecated && hDeprecated) add("property-deprecated", `${field} deprecated`, bAt, viewOf(ctx.head, hDeprecated).deprecated!);
    pairwise(bProps, hProps, (x, y) => compareSchemas(ctx, dir, x, y, `${label}.${name}`));
  }
}

/** Union branches are matched by the component they name, else by position. */
function branchKey(loc: Loc, index: number): string {
  return refName(loc.node) ?? `#${index}`;
}

function compareUnions(ctx: Context, dir: Direction, bv: SchemaView, hv: SchemaView, label: string, add: Add): void {
  const req = dir === "request";
  const bu = bv.union;
  const hu = hv.union;
  if (bu || hu) {
    const bBranches = new Map((bu?.branches ?? []).map((loc, i) => [branchKey(loc, i), loc]));
    const hBranches = new Map((hu?.branches ?? []).map((loc, i) => [branchKey(loc, i), loc]));
    for (const [key, loc] of bBranches) {
      const other = hBranches.get(key);
      if (other) compareSchemas(ctx, dir, loc, other, `${label}<${key}>`);
      else add(req ? "request-union-branch-removed" : "response-union-branch-removed", `${bu!.kind} branch ${key} removed`, loc.ptr, hu?.at ?? hv.ptr);
    }
    for (const [key, loc] of hBranches) {
      if (!bBranches.has(key)) add(req ? "request-union-branch-added" : "response-union-branch-added", `${hu!.kind} branch ${key} added`, bu?.at ?? bv.ptr, loc.ptr);
    }
  }
  const bd = bv.discriminator;
  const hd = hv.discriminator;
  if (!bd || !hd) return;
  if (bd.value.propertyName !== hd.value.propertyName) {
    add("discriminator-property-changed", `discriminator ${bd.value.propertyName} became ${hd.value.propertyName}`, `${bd.at}/propertyName`, `${hd.at}/propertyName`);
  }
  const bm = bd.value.mapping;
  const hm = hd.value.mapping;
  const at = (d: typeof bd, value: string) => child({ node: undefined, ptr: `${d.at}/mapping` }, value).ptr;
  for (const value of Object.keys(bm)) {
    if (!(value in hm)) add(req ? "request-discriminator-value-removed" : "response-discriminator-value-removed", `discriminator value ${value} removed`, at(bd, value), `${hd.at}/mapping`);
    else if (refName({ $ref: bm[value] }) !== refName({ $ref: hm[value] })) {
      add("discriminator-mapping-changed", `discriminator value ${value} now maps to ${hm[value]} (was ${bm[value]})`, at(bd, value), at(hd, value));
    }
  }
  for (const value of Object.keys(hm)) {
    if (!(value in bm)) add(req ? "request-discriminator-value-added" : "response-discriminator-value-added", `discriminator value ${value} added`, `${bd.at}/mapping`, at(hd, value));
  }
}

function compareConditionals(ctx: Context, dir: Direction, bv: SchemaView, hv: SchemaView, label: string, add: Add): void {
  const req = dir === "request";
  const count = Math.max(bv.conditionals.length, hv.conditionals.length);
  for (let i = 0; i < count; i++) {
    const b = bv.conditionals[i];
    const h = hv.conditionals[i];
    if (!b) add(req ? "request-conditional-added" : "response-conditional-added", "if/then/else added", bv.ptr, h!.if.ptr);
    else if (!h) add(req ? "request-conditional-removed" : "response-conditional-removed", "if/then/else removed", b.if.ptr, hv.ptr);
    else {
      if (!sameCondition(ctx, b.if, h.if)) add("conditional-changed", "the `if` condition changed", b.if.ptr, h.if.ptr);
      compareSchemas(ctx, dir, orEmpty(b.then), orEmpty(h.then), `${label}(then)`);
      compareSchemas(ctx, dir, orEmpty(b.else), orEmpty(h.else), `${label}(else)`);
    }
  }
}

const orEmpty = (loc: Loc): Loc => (loc.node === undefined ? { node: {}, ptr: loc.ptr } : loc);

/** An `if` is the same when comparing it either way finds no change (annotations aside). */
function sameCondition(ctx: Context, b: Loc, h: Loc): boolean {
  const scratch = { ...ctx, out: new Collector(), seen: new Set<string>() };
  compareSchemas(scratch, "request", b, h, "if");
  compareSchemas(scratch, "response", b, h, "if");
  return scratch.out.list().length === 0;
}

function pairwise(b: Loc[], h: Loc[], compare: (b: Loc, h: Loc) => void): void {
  for (let i = 0; i < Math.min(b.length, h.length); i++) compare(b[i]!, h[i]!);
}
