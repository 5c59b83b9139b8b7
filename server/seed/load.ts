// Loads a seed file (the demo seed by default), checks it against the seed schema and the
// relations between its records, and stops with a message naming the first bad path.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { seedSchema } from "./schema.js";
import { seedRelationErrors } from "./relations.js";
import type { Seed } from "./types.js";

/** The demo seed: applications A and B with the records of the document's examples. */
export const demoSeedFile = fileURLToPath(new URL("./demo.json", import.meta.url));

// ajv-formats is CommonJS with a default export; under NodeNext it arrives as the module.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

let validate: ReturnType<Ajv2020["compile"]> | undefined;
function validator() {
  if (validate === undefined) {
    // strict: false because the schema carries the document's `components` and OpenAPI
    // keywords (`discriminator`) that are annotations here.
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    validate = ajv.compile(seedSchema());
  }
  return validate;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === "" ? "/" : error.instancePath;
  const extra =
    error.keyword === "additionalProperties" || error.keyword === "unevaluatedProperties"
      ? ` (${String((error.params as Record<string, unknown>).additionalProperty ?? (error.params as Record<string, unknown>).unevaluatedProperty)})`
      : "";
  return `seed ${where}: ${error.message ?? "is invalid"}${extra}`;
}

/** Reads and checks a seed file; throws an Error naming the bad path(s). */
export function loadSeed(file: string = demoSeedFile): Seed {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`seed ${file}: ${(error as Error).message}`);
  }
  return checkSeed(data);
}

/** Checks parsed seed data against the schema and the relations between records. */
export function checkSeed(data: unknown): Seed {
  const check = validator();
  if (!check(data)) {
    // The deepest errors say most; anyOf/oneOf summaries repeat them.
    const errors = (check.errors ?? []).filter((e) => !["anyOf", "oneOf", "if"].includes(e.keyword));
    const lines = [...new Set((errors.length > 0 ? errors : (check.errors ?? [])).map(describe))];
    throw new Error(lines.slice(0, 10).join("\n"));
  }
  const seed = data as Seed;
  const problems = seedRelationErrors(seed);
  if (problems.length > 0) throw new Error(problems.slice(0, 10).join("\n"));
  return seed;
}
