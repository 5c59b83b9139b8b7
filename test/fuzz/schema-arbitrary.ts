// A small JSON Schema → fast-check arbitrary generator for the subset the document uses:
// $ref, const, enum, type (and type arrays), allOf, oneOf, anyOf, if/then/else, string
// length/pattern/format (email, ipv4, ipv6, date-time, uri), integer bounds, arrays with
// uniqueItems, objects with required/optional properties and `false` properties. It aims at
// valid values; `validArbitrary` filters through Ajv so the rare miss (a combination the
// generator cannot see, such as the `else` of an `if`) never passes as valid.
import fc from "fast-check";
import { deref, validator, type Schema } from "./document.js";

/** Replaces the arbitrary of a property by name (e.g. steer `receivers` to known users). */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

/**
 * With `edges`, values at the document's edges: integers at their bounds, strings at their
 * shortest and longest, digit strings at the limits of the storage types (2^31, 10 digits),
 * and free text holding what storage engines mishandle (U+0000, lone surrogates, U+FFFF,
 * astral characters), each half of the time.
 */
export interface Options {
  edges?: boolean;
}

/** Free-text characters a store must keep as given. */
export const edgeCharacters = ["\u0000", "\ud800", "\udc00", "\uffff", "\u001b", "\\", "'", '"', "0", "u", "\u{1F600}", "é"];
/** Digit strings at the limits of integer storage, offered to every digit pattern that takes them. */
const edgeDigits = ["0", "1", "2147483647", "2147483648", "4294967296", "9999999999", "9007199254740993"];

type S = { [keyword: string]: any };

/** Flattens `$ref` and `allOf` into one schema (properties and required merged). */
function flatten(schema: Schema): S {
  const s = deref(schema);
  if (s === true) return {};
  if (s === false) return { not: {} };
  const { allOf, ...rest } = s as S;
  return (allOf ?? []).reduce((acc: S, part: Schema) => merge(acc, flatten(part)), rest);
}

function merge(a: S, b: S): S {
  const out: S = { ...a, ...b };
  if (a.properties || b.properties) {
    out.properties = { ...a.properties };
    for (const [name, schema] of Object.entries(b.properties ?? {})) {
      const prior = out.properties[name];
      // The same declaration twice (a closed variant lists by `$ref` what its shared part declares) is one.
      const same = JSON.stringify(prior) === JSON.stringify(schema);
      out.properties[name] = prior === undefined || schema === false || prior === false || same ? schema : { allOf: [prior, schema] };
    }
  }
  if (a.required || b.required) out.required = [...new Set([...(a.required ?? []), ...(b.required ?? [])])];
  if (a.oneOf && b.oneOf) out.allOf = [{ oneOf: a.oneOf }, { oneOf: b.oneOf }];
  return out;
}

export function arbitrary(schema: Schema, hints: Hints = {}, options: Options = {}): fc.Arbitrary<unknown> {
  const s = flatten(schema);
  if ("not" in s && Object.keys(s.not).length === 0) throw new Error("no value satisfies `false`");
  if (s.allOf) return arbitrary(s, hints, options); // a nested allOf produced by merging two oneOfs
  if ("const" in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const { oneOf, anyOf, ...shared } = s;
  const branches = oneOf ?? anyOf;
  // What sits beside the union (an `if`/`then`/`else` rule too) applies within each branch.
  if (branches) return fc.oneof(...branches.map((b: Schema) => arbitrary(merge(shared, flatten(b)), hints, options)));
  const { if: condition, then, else: otherwise, ...base } = shared;
  if (condition) {
    const whenTrue = arbitrary(merge(merge(base, flatten(condition)), then ? flatten(then) : {}), hints, options);
    const whenFalse = arbitrary(merge(base, otherwise ? flatten(otherwise) : {}), hints, options);
    return fc.oneof(whenTrue, whenFalse);
  }
  const type = base.type ?? (base.properties ? "object" : undefined);
  if (Array.isArray(type)) return fc.oneof(...type.map((t: string) => arbitrary({ ...base, type: t }, hints, options)));
  switch (type) {
    case "string":
      return options.edges ? fc.oneof(stringArbitrary(base), edgeString(base)) : stringArbitrary(base);
    case "integer": {
      const integers = fc.integer({ min: base.minimum ?? -1e6, max: base.maximum ?? 1e6 });
      return options.edges ? fc.oneof(integers, fc.constantFrom(base.minimum ?? -1e6, base.maximum ?? 1e6)) : integers;
    }
    case "number":
      return fc.double({ min: base.minimum ?? -1e6, max: base.maximum ?? 1e6, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const items = arbitrary(base.items ?? {}, hints, options);
      const constraints = { minLength: base.minItems ?? 0, maxLength: Math.min(base.maxItems ?? 5, Math.max(base.minItems ?? 0, 5)) };
      return base.uniqueItems ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(items, constraints);
    }
    case "object":
      return objectArbitrary(base, hints, options);
    default:
      throw new Error(`schema without a type the generator knows: ${JSON.stringify(base).slice(0, 200)}`);
  }
}

function objectArbitrary(s: S, hints: Hints, options: Options): fc.Arbitrary<unknown> {
  const required = new Set<string>(s.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, schema] of Object.entries(s.properties ?? {})) {
    if (schema === false) continue;
    const flat = flatten(schema as Schema);
    // A property only present to be forbidden or read back is not sent.
    if (flat.readOnly) continue;
    model[name] = hints[name] ?? arbitrary(flat, hints, options);
  }
  return fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
}

const label = fc.stringMatching(/^[a-z][a-z0-9]{0,9}$/);
const emailArbitrary = fc.tuple(label, label, fc.constantFrom("example", "example.com", "test")).map(([l, d, t]) => `${l}@${d}.${t}`);

function stringArbitrary(s: S): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  const maxLength = s.maxLength ?? 64;
  const fits = (v: string) => v.length >= minLength && v.length <= maxLength;
  switch (s.format) {
    case "email":
      return emailArbitrary.filter(fits);
    case "ipv4":
      return fc.ipV4();
    case "ipv6":
      return fc.ipV6();
    case "date-time":
      return fc.date({ min: new Date(0), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
    case "uri":
      return fc.webUrl().filter(fits);
  }
  if (s.pattern) {
    // `^[class]+$` with a long minimum (an access key id): draw the length, then the characters,
    // since stringMatching's own repetitions rarely reach 16.
    const single = /^\^\[([^\]]+)\][+*]\$$/.exec(s.pattern);
    if (single) {
      const member = new RegExp(`^[${single[1]}]$`);
      const chars = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).filter((c) => member.test(c));
      return fc.string({ unit: fc.constantFrom(...chars), minLength: Math.max(minLength, 1), maxLength: Math.min(maxLength, minLength + 24) });
    }
    return fc.stringMatching(new RegExp(s.pattern)).filter(fits);
  }
  return fc.string({ minLength, maxLength: Math.min(maxLength, 40), unit: "grapheme-ascii" });
}

/**
 * A string at the schema's edges: a digit string at the storage limits its pattern takes,
 * else free text of its shortest or longest length, or of edge characters. Values the
 * schema refuses are filtered out by validArbitrary.
 */
function edgeString(s: S): fc.Arbitrary<string> {
  if (s.pattern || s.format) {
    const digits = edgeDigits.filter((d) => new RegExp(s.pattern ?? "^$").test(d));
    return digits.length > 0 ? fc.constantFrom(...digits) : stringArbitrary(s);
  }
  const min = Math.max(s.minLength ?? 0, 0);
  const max = Math.min(s.maxLength ?? 64, 64);
  const text = fc.string({ unit: fc.constantFrom(...edgeCharacters), minLength: Math.max(min, 1), maxLength: Math.max(Math.min(max, min + 8), 1) });
  return fc.oneof(text, fc.constantFrom("a".repeat(min), "\u0000".repeat(Math.max(min, 1)), "\ud800".padEnd(max, "x")));
}

/** An arbitrary of values that the document's own Ajv validator accepts. */
export function validArbitrary(schema: Schema, hints: Hints = {}, options: Options = {}): fc.Arbitrary<unknown> {
  const validate = validator(schema);
  return arbitrary(schema, hints, options).filter((v) => validate(v) === true);
}
