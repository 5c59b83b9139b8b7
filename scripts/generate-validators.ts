// Writes generated/validators.cjs (part of `npm run generate`): every validator
// express-openapi-validator (eov) and the layer compile for generated/openapi.json, as Ajv's
// standalone code, for server/contract-layer/precompiled.ts to hand to eov instead of compiling
// them at start. The schemas are the ones eov really builds: this runs the layer's
// validator over the document as a service does (eov's preprocessing, its document check,
// every operation's request validators through the warm-up, the success-body checks) with
// every Ajv instance recording what it compiles, then prints each instance's functions with
// Ajv's own `standaloneCode`. Byte-stable: the same document, options and versions give
// the same file (digests and names follow the warm-up's fixed order).
//
// Two kinds of value in Ajv's code have no code of their own, and are given one here:
// formats (a function or RegExp of ajv-formats, or one of eov's) are named by where they
// come from; a keyword defined by a `compile` function (eov's `readOnly` on requests, its
// serializers) cannot be printed at all, so a validator that uses one is left out and
// compiled at start as before (the file lists them).
import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Code } from "ajv/dist/compile/codegen/index.js";
import { basePathOf, type ApiDocument } from "../server/document/load.js";
import { isDeepStrictEqual } from "node:util";
import { documentDigest, recordCompilations, type AjvInternals, type SchemaEnv } from "../server/contract-layer/precompiled.js";
import { documentForValidator, documentValidator } from "../server/contract-layer/validator.js";

// Relative to the working directory, as the other generators: test/tooling/generated.test.ts runs them in a scratch copy.
const source = "generated/openapi.json";
const out = "generated/validators.cjs";
const eovMain = createRequire(import.meta.url).resolve("express-openapi-validator");
const eovRequire = createRequire(eovMain);
const standaloneCode = (eovRequire("ajv/dist/standalone/index.js") as { default: (ajv: unknown, refs: Record<string, string>) => string }).default;
const ajvFormats = eovRequire("ajv-formats/dist/formats.js") as Record<"fastFormats" | "fullFormats", Record<string, unknown>>;
// Ajv's code builders from eov's copy of ajv: the values they print are checked with `instanceof` there.
const { _, getProperty } = eovRequire("ajv/dist/compile/codegen/index.js") as typeof import("ajv/dist/compile/codegen/index.js");
const { _Code } = eovRequire("ajv/dist/compile/codegen/code.js") as typeof import("ajv/dist/compile/codegen/code.js");
const refParser = eovRequire("@apidevtools/json-schema-ref-parser") as { bundle: (schema: object) => Promise<unknown> };
const eovFormats = (eovRequire("./framework/ajv/formats.js") as { formats: Record<string, unknown> }).formats;

interface Recorded {
  ajv: AjvInternals;
  envs: { env: SchemaEnv; digest: string }[];
}

export async function generateValidators(): Promise<{ file: string; exported: number; skipped: string[] }> {
  const groups: Recorded[] = [];
  recordCompilations((ajv, env, digest) => {
    let group = groups.find((entry) => entry.ajv === ajv);
    if (!group) groups.push((group = { ajv, envs: [] }));
    group.envs.push({ env, digest });
  });
  const document = JSON.parse(readFileSync(source, "utf8")) as ApiDocument;
  await documentValidator(document, basePathOf(document), true).warm();
  recordCompilations(undefined);
  // Whether eov's \$ref bundling changes the document it is given (a copy of it, as eov makes one).
  const given = documentForValidator(document, basePathOf(document));
  const bundled = structuredClone(given);
  await refParser.bundle(bundled);
  const unchanged = isDeepStrictEqual(bundled, given) ? [documentDigest(given)] : [];

  const digests: Record<string, [number, string]> = {};
  const bodies: string[] = [];
  const skipped: string[] = [];
  const shared: string[] = [];
  for (const { ajv, envs } of groups) {
    nameFormats(ajv);
    shareDocument(ajv, shared);
    const refs: Record<string, string> = {};
    const internals = ajv as unknown as { refs: Record<string, unknown> };
    for (const { env, digest } of envs) {
      if (digests[digest]) continue; // the same schema on an instance set up the same way
      const name = `p${Object.keys(refs).length}`;
      internals.refs[`precompiled:${name}`] = env;
      try {
        standaloneCode(ajv, { [name]: `precompiled:${name}` });
      } catch (error) {
        // A value without code: a keyword defined by a function. Compiled at start instead.
        skipped.push(`${digest.slice(0, 12)}: ${(error as Error).message}`);
        delete internals.refs[`precompiled:${name}`];
        continue;
      }
      refs[name] = `precompiled:${name}`;
      digests[digest] = [bodies.length, name];
    }
    if (Object.keys(refs).length === 0) continue;
    const code = prune(ajv, standaloneCode(ajv, refs).replace(/^"use strict";/, ""), shared);
    bodies.push(`function (require) {\nconst exports = {};\n${code}\nreturn exports;\n}`);
  }
  const file = [
    "// Generated by scripts/generate-validators.ts from generated/openapi.json (`npm run generate`): do not edit.",
    "// Ajv standalone code of every validator express-openapi-validator and the layer compile for the document,",
    "// served by server/contract-layer/precompiled.ts when a schema's digest matches (else Ajv compiles it as before).",
    ...(skipped.length > 0 ? ["// Left out (compiled at start):", ...skipped.map((line) => `//   ${line}`)] : []),
    '"use strict";',
    `exports.digests = ${JSON.stringify(digests)};`,
    "// Documents eov's $ref bundling leaves unchanged: eov is given them as they are.",
    `exports.bundled = ${JSON.stringify(unchanged)};`,
    "// The document's `paths` and `components` as eov gives them to its validators, for the few error messages that quote a schema.",
    // Parsed as JSON: V8 reads a JSON string much faster than the same object literal.
    `const shared = JSON.parse(${JSON.stringify(`[${shared.join(",")}]`)});`,
    "// One function per Ajv instance of the generating run; `require` is express-openapi-validator's (its ajv, ajv-formats).",
    `exports.groups = [\n${bodies.join(",\n")}\n];`,
    "",
  ].join("\n");
  return { file, exported: Object.keys(digests).length, skipped };
}

type ScopeValues = Record<string, Map<unknown, { str?: string; toString(): string; value?: { key: unknown; ref: unknown; code?: Code } }>>;
const scopeValues = (ajv: AjvInternals) => (ajv as unknown as { scope: { _values: ScopeValues } }).scope._values;

/**
 * Ajv's standalone code defines every value a function's compilation registered, used or
 * not: a request validator's root schema (the whole document) among them. Definitions the
 * code never refers to are dropped.
 */
function prune(ajv: AjvInternals, code: string, _shared: string[]): string {
  let pruned = code;
  for (const names of Object.values(scopeValues(ajv))) {
    for (const name of names.values()) {
      const definition = `const ${name} = ${name.value?.code};`;
      if (!name.value?.code || !pruned.includes(definition)) continue;
      const uses = pruned.split(new RegExp(`\\b${name}\\b`)).length - 1;
      if (uses === 1) pruned = pruned.replace(definition, "");
    }
  }
  return pruned;
}

/**
 * A schema value that is one of eov's roots (`paths`, `components` and an operation's
 * parameters and body) would be printed whole per operation; its `paths` and `components`
 * are printed once in the file instead (`shared[i]`) and referred to.
 */
function shareDocument(ajv: AjvInternals, shared: string[]): void {
  const ref = (value: unknown) => {
    const text = JSON.stringify(value);
    let index = shared.indexOf(text);
    if (index < 0) index = shared.push(text) - 1;
    return `shared[${index}]`;
  };
  for (const name of scopeValues(ajv).schema?.values() ?? []) {
    const schema = name.value?.ref;
    if (!schema || typeof schema !== "object" || !("paths" in schema) || !("components" in schema)) continue;
    const { paths, components, ...rest } = schema as Record<string, unknown>;
    const own = Object.entries(rest).map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`);
    name.value!.code = new _Code(`{paths: ${ref(paths)}, components: ${ref(components)}${own.map((entry) => `, ${entry}`).join("")}}`);
  }
}

/** Gives each format value Ajv's code refers to the expression that loads it (a format's code otherwise names ajv-formats' set whatever it came from). */
function nameFormats(ajv: AjvInternals): void {
  for (const name of scopeValues(ajv).formats?.values() ?? []) {
    const value = name.value;
    if (!value) continue;
    const key = value.key as string;
    const ref = value.ref;
    if (ajvFormats.fastFormats[key] === ref) value.code = _`require("ajv-formats/dist/formats").fastFormats${getProperty(key)}`;
    else if (ajvFormats.fullFormats[key] === ref) value.code = _`require("ajv-formats/dist/formats").fullFormats${getProperty(key)}`;
    else if (eovFormats[key] === ref) value.code = _`require("./framework/ajv/formats.js").formats${getProperty(key)}`;
    else delete value.code; // a format of unknown origin: the validators using it are left out
  }
}

// Run as a script (through a symlinked scripts/ too, as test/tooling/generated.test.ts does).
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { file, exported, skipped } = await generateValidators();
  writeFileSync(out, file);
  console.log(
    `generate-validators: ${exported} validators precompiled${skipped.length > 0 ? `, ${skipped.length} left out (see the file's header)` : ""} → generated/validators.cjs`,
  );
}
