// The effective constraints of a schema with its `allOf` members folded in, each keyword
// remembering the pointer it came from. Comparing views rather than raw nodes means that
// moving a constraint into a shared component (`allOf: [$ref]`) is not reported as a change.
import { child, deref, isObject, type Loc, type Node } from "./document.js";

export interface At<T> {
  value: T;
  at: string;
}

/** Keywords whose larger value accepts more. */
export const upperBounds = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"] as const;
/** Keywords whose smaller value accepts more. */
export const lowerBounds = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"] as const;

/** Annotations: they change no accepted or produced value. */
const annotations = new Set([
  "description", "title", "examples", "example", "$comment", "externalDocs", "xml", "$schema", "$id", "$anchor",
]);
const handled = new Set<string>([
  ...upperBounds, ...lowerBounds, "$ref", "allOf", "type", "enum", "const", "pattern", "format", "default",
  "deprecated", "properties", "required", "additionalProperties", "unevaluatedProperties", "items", "oneOf",
  "anyOf", "discriminator", "if", "then", "else",
]);

export interface Conditional {
  at: string;
  if: Loc;
  then: Loc;
  else: Loc;
}

export interface SchemaView {
  ptr: string;
  types?: At<Set<string>>;
  values?: At<unknown[]> & { kind: "enum" | "const" };
  bounds: Map<string, At<number>>;
  patterns: At<string>[];
  format?: At<string>;
  default?: At<unknown>;
  deprecated?: string;
  properties: Map<string, Loc[]>;
  propertiesAt: string;
  required: Map<string, string>;
  closed?: string;
  additional: Loc[];
  items: Loc[];
  union?: { kind: "oneOf" | "anyOf"; branches: Loc[]; at: string };
  discriminator?: At<{ propertyName: string; mapping: Record<string, string> }>;
  conditionals: Conditional[];
  /** Validation keywords the classifier does not judge one by one (any change is reported). */
  others: Map<string, At<unknown>>;
}

const allTypes = ["string", "number", "integer", "boolean", "object", "array", "null"];

/** The view of the schema at `loc` (its `$ref`s followed). */
export function viewOf(doc: Node, loc: Loc): SchemaView {
  const start = deref(doc, loc);
  const view: SchemaView = {
    ptr: start.ptr,
    bounds: new Map(),
    patterns: [],
    properties: new Map(),
    propertiesAt: `${start.ptr}/properties`,
    required: new Map(),
    additional: [],
    items: [],
    conditionals: [],
    others: new Map(),
  };
  fold(doc, start, view, new Set());
  return view;
}

function fold(doc: Node, loc: Loc, view: SchemaView, visited: Set<string>): void {
  const at = deref(doc, loc);
  if (visited.has(at.ptr)) return;
  visited.add(at.ptr);
  const s = at.node;
  if (s === false) view.types = { value: new Set(), at: at.ptr };
  if (!isObject(s)) return;
  const here = (key: string) => child(at, key);

  if (s.type !== undefined) {
    const own = new Set<string>(Array.isArray(s.type) ? s.type : [s.type]);
    if (own.has("number")) own.add("integer");
    view.types = view.types
      ? { value: new Set([...view.types.value].filter((t) => own.has(t))), at: view.types.at }
      : { value: own, at: here("type").ptr };
  }
  if (s.const !== undefined) view.values = { value: [s.const], at: here("const").ptr, kind: "const" };
  else if (Array.isArray(s.enum) && !view.values) view.values = { value: s.enum, at: here("enum").ptr, kind: "enum" };
  for (const key of upperBounds) bound(view, key, s[key], here(key).ptr, Math.min);
  for (const key of lowerBounds) bound(view, key, s[key], here(key).ptr, Math.max);
  if (typeof s.pattern === "string") view.patterns.push({ value: s.pattern, at: here("pattern").ptr });
  if (typeof s.format === "string" && !view.format) view.format = { value: s.format, at: here("format").ptr };
  if (s.default !== undefined && !view.default) view.default = { value: s.default, at: here("default").ptr };
  if (s.deprecated === true) view.deprecated ??= here("deprecated").ptr;
  if (isObject(s.properties)) {
    if (view.properties.size === 0) view.propertiesAt = here("properties").ptr;
    for (const name of Object.keys(s.properties)) {
      const list = view.properties.get(name) ?? [];
      list.push(child(at, "properties", name));
      view.properties.set(name, list);
    }
  }
  if (Array.isArray(s.required)) for (const name of s.required) if (!view.required.has(name)) view.required.set(name, here("required").ptr);
  for (const key of ["additionalProperties", "unevaluatedProperties"]) {
    if (s[key] === false) view.closed ??= here(key).ptr;
    else if (isObject(s[key])) view.additional.push(here(key));
  }
  if (s.items !== undefined && s.items !== true) view.items.push(here("items"));
  for (const kind of ["oneOf", "anyOf"] as const) {
    if (Array.isArray(s[kind]) && !view.union) {
      view.union = { kind, at: here(kind).ptr, branches: s[kind].map((_: Node, i: number) => child(at, kind, i)) };
    }
  }
  if (isObject(s.discriminator) && !view.discriminator) {
    view.discriminator = {
      value: { propertyName: s.discriminator.propertyName, mapping: { ...(s.discriminator.mapping ?? {}) } },
      at: here("discriminator").ptr,
    };
  }
  if (s.if !== undefined) view.conditionals.push({ at: at.ptr, if: here("if"), then: here("then"), else: here("else") });
  for (const [key, value] of Object.entries(s)) {
    if (handled.has(key) || annotations.has(key) || key.startsWith("x-")) continue;
    if (!view.others.has(key)) view.others.set(key, { value, at: here(key).ptr });
  }
  if (Array.isArray(s.allOf)) s.allOf.forEach((_: Node, i: number) => fold(doc, child(at, "allOf", i), view, visited));
}

function bound(view: SchemaView, key: string, value: unknown, at: string, pick: (a: number, b: number) => number): void {
  if (typeof value !== "number") return;
  const known = view.bounds.get(key);
  view.bounds.set(key, known ? { value: pick(known.value, value), at: known.at } : { value, at });
}

/** The JSON types of a value (an integral number is both an integer and a number). */
function typesOfValue(value: unknown): string[] {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  if (typeof value === "number") return Number.isInteger(value) ? ["integer", "number"] : ["number"];
  return [typeof value];
}

/** The types a view admits: those it names (every type when none), within those of its `const`/`enum`. */
export function typesOf(view: SchemaView): Set<string> {
  const named = view.types?.value ?? new Set(allTypes);
  if (!view.values) return named;
  const ofValues = new Set(view.values.value.flatMap(typesOfValue));
  return new Set([...named].filter((t) => ofValues.has(t)));
}
