// Ahead-of-time compiled validators (Ajv's standalone code, generated/validators.cjs, written
// by scripts/generate-validators.ts) handed to express-openapi-validator (eov) without
// replacing it. eov builds every Ajv instance it uses through one function,
// `factoryAjv` (framework/ajv/factory.js: its request and response Ajv, the preprocessor's,
// the one of its document check); this wraps that function once per process, so each of
// those instances answers a compilation (`_compileSchemaEnv`: what `compile` and
// `getSchema` end in) with the precompiled function when the schema and the instance's
// set-up have a digest the generator recorded, and compiles as Ajv does otherwise. A
// consumer's own document, a test's varied copy, another eov or Ajv release miss the digest
// and compile as before; nothing else about eov changes.
//
// The digest covers what decides the code Ajv writes: the schema (as JSON) with the base URI
// and root its `$ref`s resolve against, the Ajv options
// (but `code`, whose settings change only how the code is printed), the names of the
// instance's keywords and formats, the schemas it holds by key (what a `$ref` reaches), the
// versions of ajv, ajv-formats and eov that eov loads, and the layer's own keyword patch
// (server/contract-layer/ajv-unevaluated.ts, by its tag).
//
// Two more hooks take work off eov's set-up, each leaving its result as it was: Ajv's walk
// of a schema for `$id`s and anchors is skipped when the schema has none, and eov's `$ref`
// bundling is skipped for a document the generator found it leaves unchanged. Each hook is
// left out if its module is not where this eov/ajv release keeps it.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { patchedIn, unevaluatedPatch } from "./ajv-unevaluated.js";

const require = createRequire(import.meta.url);
/** eov's own `require`: the ajv and ajv-formats it loads, whichever a consumer's install has elsewhere. */
const eovRequire = createRequire(require.resolve("express-openapi-validator"));

/** The parts of an Ajv instance this reads and writes (Ajv's own, not in its public types). */
export interface AjvInternals {
  opts: Record<string, unknown>;
  RULES: { keywords: Record<string, unknown> };
  formats: Record<string, unknown>;
  _compileSchemaEnv(env: SchemaEnv): unknown;
}
export interface SchemaEnv {
  schema: unknown;
  /** The schema a `$ref` inside resolves against (itself unless Ajv compiles a referenced part on its own). */
  root?: SchemaEnv;
  /** The URI relative `$ref`s and `$id`s inside resolve against. */
  baseId?: string;
  meta?: boolean;
  validate?: PrecompiledFunction;
}
type PrecompiledFunction = ((...args: unknown[]) => boolean) & { errors?: unknown; schema?: unknown; schemaEnv?: unknown };

/** What generated/validators.cjs exports. */
interface Generated {
  /** digest → [group, export name] */
  digests: Record<string, [number, string]>;
  /** Digests (documentDigest) of the documents eov's \$ref bundling leaves as they are. */
  bundled?: string[];
  /** One per Ajv instance of the generating run: builds that instance's functions, given eov's `require`. */
  groups: ((require: NodeJS.Require) => Record<string, PrecompiledFunction>)[];
}

const versionOf = (name: string) => (eovRequire(`${name}/package.json`) as { version: string }).version;

/**
 * One of eov's or Ajv's internal modules this hooks into, or undefined when a release the
 * peer range allows has moved it: then that hook is left out (eov compiles, or bundles, as
 * it always did) rather than the entry failing to load.
 */
function internal<T>(load: () => unknown): T | undefined {
  try {
    return load() as T;
  } catch {
    return undefined;
  }
}
/** The releases a digest names: the ajv, ajv-formats and eov that eov loads ("?" when one cannot be read: it never matches). */
export interface PeerVersions {
  ajv: string;
  "ajv-formats": string;
  "express-openapi-validator": string;
}
let peers: PeerVersions | undefined;

/** The installed releases, read once per process. */
export function peerVersions(): PeerVersions {
  return (peers ??= {
    ajv: internal(() => versionOf("ajv")) ?? "?",
    "ajv-formats": internal(() => versionOf("ajv-formats")) ?? "?",
    "express-openapi-validator": internal(() => (eovRequire("../package.json") as { version: string }).version) ?? "?",
  });
}

/** Stands other releases in for the installed ones (undefined: the installed again), for Ajv instances made from now on: the test that another release compiles. */
export function setPeerVersions(versions: PeerVersions | undefined): void {
  peers = versions;
}
let patch: string | undefined;

/** Per instance: its profile, and the numbers of keywords and formats it was made with (eov adds both right after creating it). */
const profiles = new WeakMap<object, { added: string; text: string }>();

/** The part of the digest an instance's set-up gives: everything but the schema. */
export function profileOf(ajv: AjvInternals): string {
  const keywords = Object.keys(ajv.RULES.keywords);
  const formats = Object.keys(ajv.formats);
  const added = `${keywords.length}/${formats.length}`;
  const known = profiles.get(ajv);
  if (known?.added === added) return known.text;
  const peer = peerVersions();
  const versions = JSON.stringify([peer.ajv, peer["ajv-formats"], peer["express-openapi-validator"]]);
  // Functions (formats, serializers) drop out of JSON; their names stay in `formats`.
  const options = JSON.stringify(ajv.opts, (key, value) => (key === "code" || key === "uriResolver" || key === "logger" ? undefined : value));
  // The patch's tag only where eov's own ajv runs it: otherwise nothing generated matches.
  patch ??= patchedIn(eovRequire) ? unevaluatedPatch : "unevaluatedProperties: not patched";
  const text = `${versions}\n${patch}\n${options}\n${keywords.sort().join(",")}\n${formats.sort().join(",")}`;
  profiles.set(ajv, { added, text });
  return text;
}

/** What the digest needs of a schema part: its hash, and whether it declares `$id`s or anchors anywhere. */
interface Part {
  hash: string;
  ids: boolean;
}
const idKeys = /"\$(id|anchor|dynamicAnchor)":/;
const partOf = (text: string): Part => ({ hash: createHash("sha256").update(text).digest("hex"), ids: idKeys.test(text) });

/**
 * A schema's digest part and id check. A schema eov gives its request validators has the
 * whole document (`paths`, `components`) beside the parameters and body: those two are
 * serialized once per object (eov builds them from its preprocessed document, which it no
 * longer changes; its preprocessor's own instance never compiles such a root), so a
 * validator's digest costs its own part only.
 */
export function schemaPart(schema: unknown, memo: WeakMap<object, Part>): Part {
  if (schema && typeof schema === "object" && !Array.isArray(schema) && ("paths" in schema || "components" in schema)) {
    const { paths, components, ...rest } = schema as Record<string, unknown>;
    const part = (value: unknown): Part => {
      if (!value || typeof value !== "object") return partOf(JSON.stringify(value) ?? "");
      let known = memo.get(value);
      if (!known) memo.set(value, (known = partOf(JSON.stringify(value))));
      return known;
    };
    const own = partOf(JSON.stringify(rest));
    const [p, c] = [part(paths), part(components)];
    return { hash: `paths:${p.hash}\ncomponents:${c.hash}\n${own.hash}`, ids: p.ids || c.ids || own.ids };
  }
  return partOf(JSON.stringify(schema) ?? "");
}

/**
 * The digest of compiling `schema` on `ajv`: its set-up, the schema, and every schema it may
 * `$ref` by key on that instance (what eov adds as `#/components/schemas/…`, the
 * meta-schemas), each by content. Left out: eov's per-validator roots (with `paths`, keyed by
 * method and route) and Ajv's `""` slot (the last schema added without an `$id`), which no
 * document refers to and which change as validators are added.
 */
export function digestOf(ajv: AjvInternals, schema: unknown, memo: WeakMap<object, Part>): string {
  return createHash("sha256").update(profileOf(ajv)).update("\n").update(schemaPart(schema, memo).hash).update(registeredText(ajv, memo)).digest("hex");
}

/**
 * The digest of compiling `env`: digestOf its schema, and what its `$ref`s resolve against,
 * its base URI and, when Ajv compiles a referenced part on its own, the root it belongs to.
 * The same text under another root or base can mean other code.
 */
export function envDigestOf(ajv: AjvInternals, env: SchemaEnv, memo: WeakMap<object, Part>): string {
  const own = digestOf(ajv, env.schema, memo);
  const root = env.root && env.root !== env ? schemaPart(env.root.schema, memo).hash : "";
  if (!env.baseId && !root) return own;
  return createHash("sha256")
    .update(own)
    .update(`\nbase ${env.baseId ?? ""}\nroot ${root}`)
    .digest("hex");
}

/** Per instance: the text of its registered schemas, and how many keys it was made from. */
const registeredTexts = new WeakMap<object, { keys: number; text: string }>();

/** The registered schemas' part of the digest, rebuilt only when a key was added (Ajv never replaces one but `""`, left out). */
function registeredText(ajv: AjvInternals, memo: WeakMap<object, Part>): string {
  const { schemas, refs } = ajv as unknown as { schemas: Record<string, unknown>; refs: Record<string, unknown> };
  const keys = Object.keys(schemas).length + Object.keys(refs).length;
  const known = registeredTexts.get(ajv);
  if (known?.keys === keys) return known.text;
  let text = "";
  for (const [kind, entries] of [
    ["schema", schemas],
    ["ref", refs],
  ] as const) {
    for (const [key, value] of Object.entries(entries)) {
      if (key === "") continue;
      if (typeof value === "string") text += `\n${kind} ${key} -> ${value}`;
      else if (value && typeof value === "object" && "schema" in value) {
        const env = value as SchemaEnv;
        if (env.schema && typeof env.schema === "object" && "paths" in env.schema) continue;
        // By its content when first seen (eov's preprocessor rewrites component schemas in
        // place later, the same way for the same document: a different document differs here already).
        let part = memo.get(env);
        if (!part) memo.set(env, (part = schemaPart(env.schema, memo)));
        text += `\n${kind} ${key} = ${part.hash}`;
      }
    }
  }
  registeredTexts.set(ajv, { keys, text });
  return text;
}

/** Counts since the process started, for the tests and the generator: served precompiled, compiled. */
export const precompiledStats = { hits: 0, misses: 0, missed: [] as string[] };

let generated: Generated | undefined | null;
function table(): Generated | null {
  if (generated === undefined) {
    try {
      generated = require("../../generated/validators.cjs") as Generated;
    } catch {
      generated = null; // not generated yet (a fresh checkout before `npm run generate`): compile
    }
  }
  return generated;
}

/** Set by the generator: every compilation is recorded, none served precompiled. */
let recorder: ((ajv: AjvInternals, env: SchemaEnv, digest: string) => void) | undefined;
/** Turned off by the test that compares precompiled functions with compiled ones. */
let enabled = true;

export function setPrecompiled(on: boolean): void {
  enabled = on;
}

/** Makes every Ajv instance eov creates from now on report its compilations to `record` (and compile them all), with the source Ajv's standalone code needs. */
export function recordCompilations(record: ((ajv: AjvInternals, env: SchemaEnv, digest: string) => void) | undefined): void {
  recorder = record;
}

/** The schemas an instance holds by key or reference (added with `addSchema`, or reached through a `$ref`). */
function registered(ajv: AjvInternals): SchemaEnv[] {
  const { schemas, refs } = ajv as unknown as { schemas: Record<string, unknown>; refs: Record<string, unknown> };
  return [...new Set([...Object.values(schemas), ...Object.values(refs)])].filter(
    (value): value is SchemaEnv => typeof value === "object" && value !== null && "schema" in value,
  );
}

function attach(ajv: AjvInternals): void {
  const compile = ajv._compileSchemaEnv.bind(ajv);
  const memo = new WeakMap<object, Part>();
  memos.set(ajv, memo);
  /** This instance's functions of each generated group, built on the group's first hit. */
  const built = new Map<number, Record<string, PrecompiledFunction>>();
  /** Record mode: each compiled schema's digest when it was compiled. */
  const compiledAs = new WeakMap<SchemaEnv, string>();
  const recordCompile = (env: SchemaEnv) => {
    // Also the schemas compiled on the way ($ref'd ones Ajv compiles separately): where a
    // precompiled function answers this call, their own later compilation must find one too.
    const before = new Set(registered(ajv).filter((other) => other.validate));
    const digest = envDigestOf(ajv, env, memo);
    const validate = compile(env);
    compiledAs.set(env, digest);
    recorder!(ajv, env, digest);
    for (const other of registered(ajv)) {
      if (other === env || !other.validate || before.has(other)) continue;
      const nested = envDigestOf(ajv, other, memo);
      compiledAs.set(other, nested);
      recorder!(ajv, other, nested);
    }
    return validate;
  };
  if (recorder) {
    (ajv.opts.code as { source?: boolean }).source = true;
    // eov's preprocessor reads `getSchema(ref).schema` of component schemas while it rewrites
    // them: one compiled on the way earlier is, with precompiled functions, compiled only at
    // that later call, from the rewritten schema. Record that compilation too.
    const getSchema = (ajv as unknown as { getSchema(key: string): PrecompiledFunction | undefined }).getSchema.bind(ajv);
    (ajv as unknown as { getSchema(key: string): unknown }).getSchema = (key: string) => {
      const validate = getSchema(key);
      const env = validate?.schemaEnv as SchemaEnv | undefined;
      if (!recorder || !env || env.meta || !compiledAs.has(env) || compiledAs.get(env) === envDigestOf(ajv, env, memo)) return validate;
      delete env.validate;
      delete (env as { validateName?: unknown }).validateName;
      recordCompile(env);
      return env.validate;
    };
  }
  ajv._compileSchemaEnv = (env: SchemaEnv) => {
    if (env.meta || env.validate) return compile(env);
    if (recorder) return recordCompile(env);
    if ((ajv.opts.code as { source?: boolean }).source) return compile(env); // an instance made while recording
    const found = enabled ? table() : null;
    const digest = found ? envDigestOf(ajv, env, memo) : "";
    const entry = found?.digests[digest];
    if (!found || !entry) {
      precompiledStats.misses++;
      // The first misses, for the tests and the generator's report: a service over its own
      // document misses every compilation, and must not keep a line for each.
      if (found && precompiledStats.missed.length < 50)
        precompiledStats.missed.push(
          `${digest.slice(0, 12)} ${JSON.stringify([
            ajv.opts.coerceTypes,
            ajv.opts.useDefaults,
            ajv.opts.allErrors,
            new Error().stack
              ?.split("\n")
              .slice(3, 9)
              .map((l) => l.trim().split(" ")[1]),
          ])} ${(JSON.stringify(env.schema) ?? "").slice(0, 100)}`,
        );
      return compile(env);
    }
    const [group, name] = entry;
    let functions = built.get(group);
    if (!functions) built.set(group, (functions = found.groups[group]!(eovRequire)));
    const validate = functions[name]!;
    // What Ajv sets on a function it compiled; eov reads `schema` (a parameter's default).
    validate.errors = null;
    validate.schema = env.schema;
    validate.schemaEnv = env;
    env.validate = validate;
    precompiledStats.hits++;
    return validate;
  };
}

/**
 * Ajv walks every schema it is given (`addSchema`, `compile`) for the `$id`s and anchors
 * inside (`getSchemaRefs`); eov gives each request validator the whole document, so that
 * walk over the document ran once per validator. A schema without any `$id`, `$anchor` or
 * `$dynamicAnchor` key has none to find: Ajv's walk would return `{}` and change nothing,
 * so for eov's instances it is skipped then (the text is serialized for the digest anyway).
 */
const memos = new WeakMap<object, WeakMap<object, Part>>();
const resolve = internal<{ getSchemaRefs: (this: unknown, schema: unknown, baseId: string) => unknown; precompiled?: true }>(() =>
  eovRequire("ajv/dist/compile/resolve.js"),
);
if (resolve && typeof resolve.getSchemaRefs === "function" && !resolve.precompiled) {
  const getSchemaRefs = resolve.getSchemaRefs;
  resolve.getSchemaRefs = function (this: unknown, schema: unknown, baseId: string) {
    const memo = memos.get(this as object);
    if (memo && schema && typeof schema === "object" && !schemaPart(schema, memo).ids) return {};
    return getSchemaRefs.call(this, schema, baseId);
  };
  resolve.precompiled = true;
}

const factory = internal<{ factoryAjv: (...args: unknown[]) => AjvInternals; precompiled?: true }>(() => eovRequire("./framework/ajv/factory.js"));
if (factory && typeof factory.factoryAjv === "function" && !factory.precompiled) {
  const original = factory.factoryAjv;
  factory.factoryAjv = (...args: unknown[]) => {
    const ajv = original(...args);
    if (ajv) attach(ajv);
    return ajv;
  };
  factory.precompiled = true;
}

/** What eov's `$ref` bundling reads of a document: its `paths`, `components` and `webhooks` (not its servers, which the layer sets to the base path). */
export function documentDigest(document: { paths?: unknown; components?: unknown; webhooks?: unknown; openapi?: unknown }): string {
  const { openapi, paths, components, webhooks } = document;
  return createHash("sha256").update(JSON.stringify({ openapi, paths, components, webhooks })).digest("hex");
}

/**
 * eov bundles the `$ref`s of the document it is given (json-schema-ref-parser's `bundle`,
 * about 20 ms for this one) before anything else, although the layer gives it the bundled
 * document: for a document the generator found bundling leaves unchanged (the same object,
 * equal content), eov is given it as is. Any other document is bundled as before.
 */
const framework = internal<{
  OpenAPIFramework: { prototype: { loadSpec: (spec: unknown, parser?: { mode?: string }) => unknown } };
  precompiled?: true;
}>(() => eovRequire("./framework/index.js"));
if (framework && typeof framework.OpenAPIFramework?.prototype?.loadSpec === "function" && !framework.precompiled) {
  const loadSpec = framework.OpenAPIFramework.prototype.loadSpec;
  framework.OpenAPIFramework.prototype.loadSpec = function (this: unknown, spec: unknown, parser?: { mode?: string }) {
    const bundled = !recorder && enabled ? table()?.bundled : undefined;
    if (bundled && spec && typeof spec === "object" && (parser?.mode ?? "bundle") === "bundle" && bundled.includes(documentDigest(spec))) return Promise.resolve(spec);
    return loadSpec.call(this, spec, parser);
  };
  framework.precompiled = true;
}
