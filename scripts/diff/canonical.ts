// Writes a document in one canonical spelling before `redocly diff` compares it: a schema
// whose `allOf` holds a single member validates as its member does (server/document/fold-all-of.ts),
// but Redocly reports the rewrite as `schema-combinator-changed` and, under a discriminator
// mapping, as a narrowed type. Folding such an `allOf` on both sides leaves only real
// changes. Members whose keywords collide with the parent's stay as they are. Closed
// objects are also written as one object (`flattenClosedObjects`, below), what sits beside
// a union as part of each branch (`liftUnions`, `distributeOverUnions`), a `const` as a one-value `enum`,
// and keywords a schema's branches or its `const` already imply are left out (`simplified`).
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

/**
 * The document with each union at the level of the schema it constrains: an `anyOf` or
 * `oneOf` of one member is that member (`{anyOf: [U]}` accepts what U does), and an `allOf`
 * member that is only a union (`oneOf`/`anyOf` and its `discriminator`) moves up beside the
 * other members when the parent has no union of its own (`allOf: [R, U]` is `allOf: [R]`
 * beside U). Then `distributeOverUnions` can write R into each variant.
 */
export function liftUnions(document: Json): Json {
  const unionKeys = ["oneOf", "anyOf", "discriminator"];
  const walk = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    let walked: JsonObject = {};
    for (const [key, value] of Object.entries(node)) walked[key] = walk(value);
    for (const key of ["anyOf", "oneOf"]) {
      const members = walked[key];
      if (!Array.isArray(members) || members.length !== 1 || !isObject(members[0])) continue;
      const { [key]: _, ...rest } = walked;
      if (Object.keys(members[0]).some((name) => name in rest)) continue;
      walked = { ...members[0], ...rest };
    }
    if (Array.isArray(walked.allOf) && unionKeys.every((key) => !(key in walked))) {
      const index = walked.allOf.findIndex(
        (member) => isObject(member) && Object.keys(member).every((key) => unionKeys.includes(key)) && ("oneOf" in member || "anyOf" in member),
      );
      if (index >= 0) {
        const union = walked.allOf[index] as JsonObject;
        const allOf = walked.allOf.filter((_, i) => i !== index);
        walked = { ...walked, ...union, allOf };
        if (allOf.length === 0) delete walked.allOf;
      }
    }
    return walked;
  };
  return walk(document);
}

/**
 * The document with what sits beside a union moved into its branches: an `allOf` member or
 * an `if`/`then`/`else` rule A beside `oneOf: [B1, B2]` accepts what `oneOf: [A ∧ B1, A ∧ B2]`
 * does (and likewise for `anyOf`). A rule applied once to the whole union and the same rule
 * applied inside each variant come out alike. Only where every branch is a `$ref` to a
 * component schema that nothing else references, since that component is where A goes (as
 * one more `allOf` member).
 */
export function distributeOverUnions(document: Json): Json {
  const copy = structuredClone(document);
  const schemas = isObject(copy) && isObject(copy.components) && isObject(copy.components.schemas) ? copy.components.schemas : {};
  const references = new Map<string, number>();
  const count = (node: Json): void => {
    if (Array.isArray(node)) node.forEach(count);
    else if (isObject(node)) {
      if (typeof node.$ref === "string") references.set(node.$ref, (references.get(node.$ref) ?? 0) + 1);
      Object.values(node).forEach(count);
    }
  };
  count(copy);
  const componentOf = (branch: Json): string | undefined =>
    isObject(branch) && Object.keys(branch).length === 1 && typeof branch.$ref === "string" && references.get(branch.$ref) === 1
      ? /^#\/components\/schemas\/([^/]+)$/.exec(branch.$ref)?.[1]
      : undefined;
  const conditional = ["if", "then", "else"];
  const walk = (node: Json): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObject(node)) return;
    Object.values(node).forEach(walk);
    const branches = node.oneOf ?? node.anyOf;
    if (!Array.isArray(branches) || ("oneOf" in node && "anyOf" in node)) return;
    const rule: JsonObject = Object.fromEntries(conditional.filter((key) => key in node).map((key) => [key, node[key]!]));
    const members = [...(Array.isArray(node.allOf) ? node.allOf : []), ...("if" in rule ? [rule] : [])];
    if (members.length === 0) return;
    const names = branches.map(componentOf);
    if (names.some((name) => name === undefined || !isObject(schemas[name]))) return;
    for (const name of names as string[]) {
      const target = schemas[name] as JsonObject;
      schemas[name] = { ...target, allOf: [...(Array.isArray(target.allOf) ? target.allOf : []), ...structuredClone(members)] };
    }
    delete node.allOf;
    if ("if" in rule) for (const key of conditional) delete node[key];
  };
  walk(copy);
  return copy;
}

/** Upper bounds: a branch within the wrapper's bound keeps to it. The lower bounds are their mirror. */
const upperBounds = ["maxLength", "maxItems", "maxProperties", "maximum"];
const lowerBounds = ["minLength", "minItems", "minProperties", "minimum"];
const jsonType = (value: Json): string =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : typeof value;

/**
 * The document in its plainest spelling: `required` in one order, a `const` as the one-value
 * `enum` it is, and without keywords that say nothing more: a `type` beside an `enum` whose
 * values all have it, and a `type` or bound beside `anyOf`/`oneOf` that every branch (a
 * local `$ref` followed) carries, the same type or a bound as tight. `{type: string, const:
 * now}` is `{enum: [now]}`, and `{type: string, maxLength: 45, anyOf: [{type: string,
 * maxLength: 15}, {type: string, maxLength: 45}]}` the same union without the wrapper's two.
 * (Redocly then judges a changed `const` as the enum change it is.)
 */
export function simplified(document: Json): Json {
  const resolve = (node: Json, depth = 0): Json => {
    if (depth > 16 || !isObject(node) || typeof node.$ref !== "string") return node;
    const path = /^#\/(.*)$/.exec(node.$ref)?.[1];
    if (path === undefined) return node;
    let target: Json | undefined = document;
    for (const segment of path.split("/")) target = isObject(target) ? target[segment.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
    return target === undefined ? node : resolve(target, depth + 1);
  };
  const walk = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    const walked: JsonObject = {};
    for (const [key, value] of Object.entries(node)) walked[key] = walk(value);
    if (Array.isArray(walked.required) && walked.required.every((name) => typeof name === "string")) walked.required = [...walked.required].sort();
    if ("const" in walked && !("enum" in walked)) {
      walked.enum = [walked.const!];
      delete walked.const;
    }
    if (Array.isArray(walked.enum) && typeof walked.type === "string" && walked.enum.every((value) => jsonType(value) === walked.type)) delete walked.type;
    const branches = walked.anyOf ?? walked.oneOf;
    if (Array.isArray(branches) && branches.length > 0) {
      const resolved = branches.map((branch) => resolve(branch));
      const all = (test: (branch: JsonObject) => boolean) => resolved.every((branch) => isObject(branch) && test(branch));
      if (typeof walked.type === "string" && all((branch) => branch.type === walked.type)) delete walked.type;
      for (const key of upperBounds) {
        const bound = walked[key];
        if (typeof bound === "number" && all((branch) => typeof branch[key] === "number" && branch[key] <= bound)) delete walked[key];
      }
      for (const key of lowerBounds) {
        const bound = walked[key];
        if (typeof bound === "number" && all((branch) => typeof branch[key] === "number" && branch[key] >= bound)) delete walked[key];
      }
    }
    return walked;
  };
  return walk(document);
}

/** The canonical spelling both sides of a diff are written in. */
export function canonical(document: Json): Json {
  return flattenClosedObjects(simplified(foldSingleAllOf(distributeOverUnions(liftUnions(document)))));
}
