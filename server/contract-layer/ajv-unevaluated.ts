// A correction to Ajv 8's `unevaluatedProperties`, applied once for every Ajv instance of
// the process (express-openapi-validator's among them). When the properties a schema
// evaluated are only known at run time (through `if`/`then`, `oneOf`, `allOf` of such),
// Ajv keeps them in a plain object and asks `!props[key]`: for a key named after a member of
// Object.prototype (`constructor`, `toString`, `__proto__`, …) that lookup finds the
// inherited member, so the key counted as evaluated and a closed body accepted it
// (https://github.com/ajv-validator/ajv/issues/2664 describes the same lookup in `required`).
// Here a key counts as evaluated only when the object holds `true` for it. The keyword
// definition is shared by every Ajv instance through the module cache, and its `code` is
// read when a schema is compiled, so replacing it before the first compile is enough.
// test/server/middleware/prototype-keys.test.ts sends each such name to every closed body.
import { createRequire } from "node:module";
import { _, Name, type Code, type CodeKeywordDefinition, type KeywordCxt } from "ajv";

const require = createRequire(import.meta.url);
const { alwaysValidSchema, Type } = require("ajv/dist/compile/util.js") as typeof import("ajv/dist/compile/util.js");
const names = (require("ajv/dist/compile/names.js") as { default: typeof import("ajv/dist/compile/names.js").default }).default;
const definition = (require("ajv/dist/vocabularies/unevaluated/unevaluatedProperties.js") as { default: CodeKeywordDefinition }).default;

/** Ajv's own `code` of the keyword, but the run-time check asks `props[key] !== true`. */
function code(cxt: KeywordCxt): void {
  const { gen, schema, data, errsCount, it } = cxt;
  if (!errsCount) throw new Error("ajv implementation error");
  const { allErrors, props } = it;
  const report = (key: Name) => {
    if (schema === false) {
      cxt.setParams({ unevaluatedProperty: key });
      cxt.error();
      if (!allErrors) gen.break();
      return;
    }
    if (!alwaysValidSchema(it, schema)) {
      const valid = gen.name("valid");
      cxt.subschema({ keyword: "unevaluatedProperties", dataProp: key, dataPropType: Type.Str }, valid);
      if (!allErrors) gen.if(_`!${valid}`, () => gen.break());
    }
  };
  if (props instanceof Name) {
    // Known at run time only: an object built while validating, or `true` when all were.
    gen.if(_`${props} !== true`, () => gen.forIn("key", data, (key) => gen.if(_`!${props} || ${props}[${key}] !== true`, () => report(key))));
  } else if (props !== true) {
    // Known at compile time: compared by name, as Ajv does (no lookup, nothing inherited).
    const known = Object.keys(props ?? {}).filter((p) => props![p] === true);
    gen.forIn("key", data, (key) => {
      if (known.length === 0) return report(key);
      gen.if(
        known.map((p): Code => _`${key} !== ${p}`).reduce((a, b) => _`${a} && ${b}`),
        () => report(key),
      );
    });
  }
  it.props = true;
  cxt.ok(_`${errsCount} === ${names.errors}`);
}

definition.code = code;

/**
 * Names this patch in the digest of precompiled validators (server/contract-layer/precompiled.ts):
 * code generated with it is served only where it is applied. Change it with `code` above.
 */
export const unevaluatedPatch = "unevaluatedProperties: props[key] !== true (1)";

/**
 * Whether the ajv that `ajvRequire` loads runs this patch: express-openapi-validator may
 * resolve an ajv of its own (another version nested under it), which this module's
 * `require` does not reach; code generated with the patch must not be served to it.
 */
export function patchedIn(ajvRequire: NodeJS.Require): boolean {
  try {
    return (ajvRequire("ajv/dist/vocabularies/unevaluated/unevaluatedProperties.js") as { default: CodeKeywordDefinition }).default.code === code;
  } catch {
    return false;
  }
}
