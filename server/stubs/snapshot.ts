// `.contract.json`, the document a stubs directory was last generated from: written in the
// layout Prettier gives a `.json` file at its defaults (so a team's `prettier --check` leaves
// it alone), and read back as untrusted input (a hand edit, a bad merge, anything a
// repository can hold): JSON of bounded size with the shape of a document, else one line
// saying what is wrong.
import type { ApiDocument } from "../document/load.js";

/** Prettier's default `printWidth`. */
const printWidth = 80;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** Columns a string takes: one per code point (the document holds no character Prettier counts as two). */
const width = (text: string) => [...text].length;

/** A JSON scalar as Prettier prints a number (`1e+21` is `1e21`) or keeps a string. */
const scalar = (value: unknown) => JSON.stringify(value).replace(/e\+/, "e");

/** An array Prettier breaks whatever its width: two or more items, each an array or object of two or more. */
const alwaysBroken = (items: unknown[]) =>
  items.length > 1 && items.every((item) => (Array.isArray(item) ? item.length > 1 : isObject(item) && Object.keys(item).length > 1));

/** The one-line form of a value, or undefined when Prettier breaks it (a non-empty object, kept expanded as written). */
function flat(value: unknown): string | undefined {
  if (isObject(value)) return Object.keys(value).length === 0 ? "{}" : undefined;
  if (!Array.isArray(value)) return scalar(value);
  if (alwaysBroken(value)) return undefined;
  const items = value.map(flat);
  return items.includes(undefined) ? undefined : `[${items.join(", ")}]`;
}

/** `value` starting at column `column` of a line indented by `indent`; `comma`: a comma follows it on that line. */
function print(value: unknown, indent: number, column: number, comma: boolean): string {
  const inner = " ".repeat(indent + 2);
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const lines = entries.map(([key, item], i) => {
      const head = `${JSON.stringify(key)}: `;
      return `${inner}${head}${print(item, indent + 2, indent + 2 + width(head), i < entries.length - 1)}`;
    });
    return `{\n${lines.join(",\n")}\n${" ".repeat(indent)}}`;
  }
  if (!Array.isArray(value)) return scalar(value);
  if (value.length === 0) return "[]";
  const one = flat(value);
  if (one !== undefined && column + width(one) + (comma ? 1 : 0) <= printWidth) return one;
  // Numbers fill each line as far as they fit (Prettier's concise arrays).
  if (value.length > 1 && value.every((item) => typeof item === "number")) {
    const lines: string[] = [];
    let line = "";
    for (const [i, item] of value.entries()) {
      const content = `${scalar(item)}${i < value.length - 1 ? "," : ""}`;
      if (line !== "" && indent + 2 + width(line) + 1 + width(content) <= printWidth) line += ` ${content}`;
      else {
        if (line !== "") lines.push(line);
        line = content;
      }
    }
    lines.push(line);
    return `[\n${lines.map((text) => `${inner}${text}`).join("\n")}\n${" ".repeat(indent)}]`;
  }
  const lines = value.map((item, i) => `${inner}${print(item, indent + 2, indent + 2, i < value.length - 1)}`);
  return `[\n${lines.join(",\n")}\n${" ".repeat(indent)}]`;
}

/** `value` as JSON in the layout Prettier gives it at its defaults (objects expanded, arrays on one line when they fit). */
export const prettierJson = (value: unknown): string => `${print(value, 0, 0, false)}\n`;

/** The largest `.contract.json` read: the package's document is a few hundred kB. */
export const maxSnapshotBytes = 16 * 1024 * 1024;

/** `.contract.json` is not a document the command can compare with: the one line that says why. */
export class SnapshotError extends Error {
  override name = "SnapshotError";
}

/** The document a `.contract.json` holds; throws SnapshotError (one line) for JSON that is not one. */
export function parseSnapshot(text: string): ApiDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SnapshotError(`is not JSON (${(error as Error).message.split("\n")[0]})`);
  }
  const shape = !isObject(value)
    ? "not an object"
    : !isObject(value.info) || typeof value.info.version !== "string"
      ? "no info.version"
      : !isObject(value.paths) || !Object.values(value.paths).every(isObject)
        ? "no paths object of path items"
        : undefined;
  if (shape) throw new SnapshotError(`is not an OpenAPI document (${shape})`);
  return value as unknown as ApiDocument;
}
