// Writes a document in one canonical spelling before `redocly diff` compares it: a schema
// whose `allOf` holds a single member validates as its member does (server/document/fold-all-of.ts),
// but Redocly reports the rewrite as `schema-combinator-changed` and, under a discriminator
// mapping, as a narrowed type. Folding such an `allOf` on both sides leaves only real
// changes. Members whose keywords collide with the parent's stay as they are. Closed
// objects are also written as one object (`flattenClosedObjects`, below).
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { foldSingleAllOf, type Json } from "../../server/document/fold-all-of.js";

/** Writes the canonical spelling of a bundled document file into `dir` (as `<prefix>-<name>`); returns its path. */
export function canonicalCopy(file: string, dir: string, prefix: string): string {
  const copy = join(dir, `${prefix}-${basename(file)}`);
  writeFileSync(copy, JSON.stringify(canonical(JSON.parse(readFileSync(file, "utf8")) as Json)));
  return copy;
}

type JsonObject = { [key: string]: Json };
const isObject = (value: Json | undefined): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);
const same = (a: Json | undefined, b: Json | undefined): boolean => JSON.stringify(a) === JSON.stringify(b);
/** Keywords that only annotate: on a clash the parent's stays (the canonical form is for judging validation). */
const annotations = new Set(["title", "description", "examples", "example", "$comment"]);
/** Keywords that evaluate properties in place: while one is left, `unevaluatedProperties` is not `additionalProperties`. */
const applicators = ["allOf", "anyOf", "oneOf", "$ref", "patternProperties", "dependentSchemas", "unevaluatedItems"];

/** Every `properties` name a subschema (and its nested subschemas) mentions. */
function namesIn(node: Json | undefined, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) namesIn(item, into);
  else if (isObject(node)) {
    if (isObject(node.properties)) for (const name of Object.keys(node.properties)) into.add(name);
    for (const value of Object.values(node)) namesIn(value, into);
  }
  return into;
}

/**
 * A closed object written as its members' union, or undefined when a keyword clashes: `allOf`
 * members (a local `$ref` taken as its target) merged into the parent, `required` as a sorted
 * union, `properties` as a union (two different declarations of one name as their `allOf`). Then `unevaluatedProperties:
 * false` reads as `additionalProperties: false` when nothing that evaluates properties in
 * place is left (if/then/else naming only listed properties).
 */
function flattenClosed(node: JsonObject, resolve: (ref: string) => JsonObject | undefined): JsonObject | undefined {
  const merged: JsonObject = { ...node };
  // A `$ref` beside other keywords is one more member (foldSingleAllOf writes `allOf: [$ref]` so).
  const members = [...(Array.isArray(node.allOf) ? node.allOf : []), ...(typeof node.$ref === "string" ? [{ $ref: node.$ref }] : [])];
  delete merged.allOf;
  delete merged.$ref;
  for (const raw of members) {
    const member = isObject(raw) && typeof raw.$ref === "string" && Object.keys(raw).length === 1 ? resolve(raw.$ref) : raw;
    if (!isObject(member)) return undefined;
    for (const [key, value] of Object.entries(member)) {
      if (key === "required" && Array.isArray(value)) merged.required = [...new Set([...(Array.isArray(merged.required) ? merged.required : []), ...value])];
      else if (key === "properties" && isObject(value)) {
        const properties: JsonObject = { ...(isObject(merged.properties) ? merged.properties : {}) };
        for (const [name, schema] of Object.entries(value)) {
          // Two declarations of one property both apply: an `allOf` of the two says so.
          properties[name] = name in properties && !same(properties[name], schema) ? { allOf: [properties[name]!, schema] } : schema;
        }
        merged.properties = properties;
      } else if (!(key in merged)) merged[key] = value;
      else if (!same(merged[key], value) && !annotations.has(key)) return undefined;
    }
  }
  if (Array.isArray(merged.required)) merged.required = [...merged.required].sort();
  const listed = new Set(Object.keys(isObject(merged.properties) ? merged.properties : {}));
  const conditional = namesIn([merged.if ?? null, merged.then ?? null, merged.else ?? null]);
  if (
    merged.unevaluatedProperties === false &&
    !("additionalProperties" in merged) &&
    applicators.every((key) => !(key in merged)) &&
    [...conditional].every((name) => listed.has(name))
  ) {
    delete merged.unevaluatedProperties;
    merged.additionalProperties = false;
  }
  return merged;
}

/**
 * The document with every closed object schema (`unevaluatedProperties: false` or
 * `additionalProperties: false`) that has `allOf` written as one object: the same request
 * variant spelled `allOf: [{type const}, $ref Fields] + unevaluatedProperties: false` or as
 * its properties listed by `$ref` + `additionalProperties: false` accepts the same bodies,
 * and Redocly would report the second as a narrowed request (a new `additionalProperties`)
 * and every listed property as added. Both spellings come out alike here; a real change to
 * any member still shows.
 */
export function flattenClosedObjects(document: Json): Json {
  const schemas = isObject(document) && isObject(document.components) && isObject(document.components.schemas) ? document.components.schemas : {};
  const done = new Map<string, JsonObject | undefined>();
  const resolving = new Set<string>();
  const resolve = (ref: string): JsonObject | undefined => {
    const name = /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1];
    if (name === undefined || resolving.has(name)) return undefined;
    if (!done.has(name)) {
      resolving.add(name);
      const target = schemas[name];
      done.set(name, isObject(target) ? (walk(target) as JsonObject) : undefined);
      resolving.delete(name);
    }
    return done.get(name);
  };
  const walk = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    const walked: JsonObject = {};
    for (const [key, value] of Object.entries(node)) walked[key] = walk(value);
    const closed = walked.unevaluatedProperties === false || walked.additionalProperties === false;
    if (!closed || !(Array.isArray(walked.allOf) || typeof walked.$ref === "string")) return walked;
    return flattenClosed(walked, resolve) ?? walked;
  };
  return walk(document);
}

/** The canonical spelling both sides of a diff are written in. */
export function canonical(document: Json): Json {
  return flattenClosedObjects(foldSingleAllOf(document));
}
