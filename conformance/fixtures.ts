// The `--fixtures FILE` of `authsvc-api conformance`: a JSON object naming records the
// target holds for the checked application. Every key is optional; an unknown key or a
// value of the wrong shape is refused by name, so a typo cannot silently skip checks.
import { readFileSync } from "node:fs";
import type { Fixtures } from "./target.js";

const idKeys = ["widget", "user", "smsProvider", "webhook"] as const;

/** Thrown for an unreadable or malformed fixtures file; the message is one line. */
export class FixturesError extends Error {}

export function parseFixtures(text: string, file: string): Fixtures {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new FixturesError(`${file}: not JSON (${(error as Error).message})`);
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new FixturesError(`${file}: expected a JSON object`);
  const fixtures: Fixtures = {};
  for (const [key, value] of Object.entries(data)) {
    if ((idKeys as readonly string[]).includes(key)) {
      if (typeof value !== "string" || value === "") throw new FixturesError(`${file}: "${key}" must be a non-empty string (an id)`);
      fixtures[key as (typeof idKeys)[number]] = value;
    } else if (key === "otherApplication") {
      const other = value as Record<string, unknown> | null;
      if (!other || typeof other.apiKey !== "string" || typeof other.apiSecret !== "string" || !other.apiKey || !other.apiSecret) {
        throw new FixturesError(`${file}: "otherApplication" must be { "apiKey": "…", "apiSecret": "…" }`);
      }
      fixtures.otherApplication = { apiKey: other.apiKey, apiSecret: other.apiSecret };
    } else if (key === "disposable") {
      fixtures.disposable = parseDisposable(value, file);
    } else {
      throw new FixturesError(`${file}: unknown key "${key}" (expected ${[...idKeys, "otherApplication", "disposable"].join(", ")})`);
    }
  }
  return fixtures;
}

/** `"disposable": { "webhook": ["whk_…", …] }`: records the checks of deleting operations may use up. */
function parseDisposable(value: unknown, file: string): NonNullable<Fixtures["disposable"]> {
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new FixturesError(`${file}: "disposable" must be an object of id lists, e.g. { "webhook": ["…"] }`);
  const disposable: NonNullable<Fixtures["disposable"]> = {};
  for (const [kind, ids] of Object.entries(value)) {
    if (!(idKeys as readonly string[]).includes(kind)) throw new FixturesError(`${file}: unknown kind "${kind}" in "disposable" (expected ${idKeys.join(", ")})`);
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== "string" || id === "")) throw new FixturesError(`${file}: "disposable"."${kind}" must be a list of ids`);
    disposable[kind as (typeof idKeys)[number]] = ids as string[];
  }
  return disposable;
}

export function readFixtures(file: string): Fixtures {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new FixturesError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseFixtures(text, file);
}
