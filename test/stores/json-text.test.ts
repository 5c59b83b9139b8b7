// The PostgreSQL store's body escape (server/store/postgres/json-text.ts): any JSON value,
// its strings and keys made of any UTF-16 code units (U+0000, lone surrogates, U+FFFF and
// the escape's own letters among them), is written as text without U+0000 or a lone
// surrogate (what json's ->> and jsonb can read) and read back exactly; a string that needs
// no escape is written as it is.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromStored, storedJson } from "../../server/store/postgres/json-text.js";

const units = fc.string({
  unit: fc.oneof(
    fc.constantFrom("\u0000", "\ud800", "\udbff", "\udc00", "\udfff", "\uffff", "0", "u", "d", "8"),
    fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)),
  ),
});
const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    units,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(units, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** No lone surrogate: each high surrogate followed by a low one, each low one preceded by a high one. */
const wellFormed = (s: string) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

/** Every string and key of a parsed JSON value. */
const stringsOf = (value: unknown): string[] =>
  typeof value === "string"
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(stringsOf)
      : value !== null && typeof value === "object"
        ? Object.entries(value).flatMap(([k, v]) => [k, ...stringsOf(v)])
        : [];

describe("json-text: bodies PostgreSQL can hold", () => {
  it("reads back every value exactly, and writes no U+0000 or lone surrogate", () => {
    fc.assert(
      fc.property(values, (value) => {
        const text = storedJson(value);
        const stored = JSON.parse(text) as unknown;
        for (const s of stringsOf(stored)) expect(!s.includes("\u0000") && wellFormed(s), JSON.stringify(s)).toBe(true);
        expect(fromStored(stored)).toEqual(value);
      }),
      { numRuns: 2000 },
    );
  });

  it("leaves strings that need no escape as they are, pairs of surrogates included", () => {
    const value = { name: "Backup gateway 😀", list: ["a", "é"], "key ü": 1 };
    expect(storedJson(value)).toBe(JSON.stringify(value));
    expect(fromStored(value)).toBe(value);
  });

  it("escapes behind U+FFFF", () => {
    expect(JSON.parse(storedJson({ a: "x\u0000y\ud800z\uffff" }))).toEqual({ a: "x\uffff0y\uffffud800z\uffff\uffff" });
  });
});
