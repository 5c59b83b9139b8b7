// Request bodies as PostgreSQL can hold and read them. A JSON string may hold U+0000 and lone
// surrogates (the document accepts both in free text such as a provider's `name` or an
// e-mail `from_name`), but PostgreSQL's text cannot: jsonb refuses them, and json keeps them
// only as escapes that `->>`, `::jsonb` and every JSON function then fail on. So strings are
// stored with those characters escaped, behind U+FFFF (a noncharacter, reserved by Unicode
// for such internal use; itself escaped when a string holds it), and read back exactly:
//   U+0000 → U+FFFF "0"   lone surrogate D800 → U+FFFF "u" "d800"   U+FFFF → U+FFFF U+FFFF
// A string without any of them (nearly all) is stored as it is.
const escapeMark = "\uffff";
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is one of the characters this finds
const needsEscape = /[\u0000\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is one of the characters this finds
const toEscape = /[\u0000\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const escaped = /\uffff(?:(0)|(\uffff)|u([0-9a-f]{4}))/g;

function encodeString(value: string): string {
  if (!needsEscape.test(value)) return value;
  return value.replace(toEscape, (c) =>
    c === "\u0000" ? `${escapeMark}0` : c === escapeMark ? escapeMark + escapeMark : `${escapeMark}u${c.charCodeAt(0).toString(16)}`,
  );
}

function decodeString(value: string): string {
  if (!value.includes(escapeMark)) return value;
  return value.replace(escaped, (_, nul: string | undefined, self: string | undefined, unit: string | undefined) =>
    nul ? "\u0000" : self ? escapeMark : String.fromCharCode(parseInt(unit!, 16)),
  );
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [map(key), mapStrings(item, map)]));
  }
  return value;
}

/** A value as JSON text PostgreSQL's json and jsonb hold and read back (for a query parameter). */
export function storedJson(value: unknown): string {
  return JSON.stringify(mapStrings(value, encodeString));
}

/** True when a string of `value` (or a key) holds the escape: only then is a copy made. */
function holdsEscape(value: unknown): boolean {
  if (typeof value === "string") return value.includes(escapeMark);
  if (Array.isArray(value)) return value.some(holdsEscape);
  if (value !== null && typeof value === "object") return Object.entries(value).some(([key, item]) => key.includes(escapeMark) || holdsEscape(item));
  return false;
}

/** A value read from a json or jsonb column written by storedJson, as it was given. */
export function fromStored<T>(value: T): T {
  return holdsEscape(value) ? (mapStrings(value, decodeString) as T) : value;
}
