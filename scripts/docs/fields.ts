// A schema of the document as the fields a reader looks for: each property with its type,
// whether it is required, its description, its limits in words, and its own fields (an object,
// the items of an array) or its variants (a `oneOf`/`anyOf` of objects). `allOf` members are
// merged into the fields of the schema that applies them; `if`/`then`/`else` rules are kept
// as the sentences they carry. The page (schema-html.ts) and the Markdown for assistants
// (llms.ts) both render this model, so the two never disagree on a field.
import { deref } from "../../server/document/walk.js";

type Schema = Record<string, any>;

export interface Field {
  name: string;
  type: string;
  required: boolean;
  description: string;
  /** Limits and facts in words, as Markdown: `1–64 characters`, ``default `10` ``, ``pattern `^[a-z]+$` ``. */
  constraints: string[];
  deprecated?: { at?: string; sunset?: string };
  /** An object's fields, or those of an array's object items. */
  fields?: Field[];
  /** For a union of objects: each variant's fields. */
  variants?: Variant[];
  /** Rules over several fields of this object (`if`/`then`/`else`), in words. */
  rules?: string[];
  /** The object refuses fields it does not list (`additionalProperties: false`). */
  closed?: boolean;
}

export interface Variant {
  title: string;
  description: string;
  fields: Field[];
  rules: string[];
  closed: boolean;
}

export interface Shape {
  type: string;
  description: string;
  constraints: string[];
  fields?: Field[];
  variants?: Variant[];
  rules?: string[];
  closed?: boolean;
}

/** A value as a Markdown code span (a fence longer than any run of backticks in it). */
export const code = (text: string) => {
  const fence = "`".repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  return `${fence}${/^`|`$/.test(text) ? ` ${text} ` : text}${fence}`;
};
const json = (value: unknown) => code(JSON.stringify(value));

/** `schema` with its `$ref`s followed and its `allOf` members merged (properties, required, rules). */
function merged(document: unknown, node: unknown, seen: string[] = []): Schema {
  const schema = deref<Schema>(document, node);
  if (!schema || typeof schema !== "object" || !Array.isArray(schema.allOf)) return schema;
  const out: Schema = { ...schema, allOf: undefined, properties: {}, required: [] as string[], "x-rules": [...(schema["x-rules"] ?? [])] };
  for (const member of schema.allOf) {
    const ref = (member as { $ref?: string }).$ref;
    if (ref && seen.includes(ref)) continue;
    const part = merged(document, member, ref ? [...seen, ref] : seen);
    Object.assign(out.properties, part.properties ?? {});
    out.required.push(...(part.required ?? []));
    out["x-rules"].push(...rulesOf(part));
    for (const key of ["type", "additionalProperties", "unevaluatedProperties", "oneOf", "anyOf", "discriminator"]) {
      if (out[key] === undefined && part[key] !== undefined) out[key] = part[key];
    }
  }
  Object.assign(out.properties, schema.properties ?? {});
  out.required = [...new Set([...out.required, ...(schema.required ?? [])])];
  return out;
}

/** The sentences of an object's `if`/`then`/`else` rule (each branch's description). */
function rulesOf(schema: Schema): string[] {
  return [...(schema["x-rules"] ?? []), ...[schema.then, schema.else].flatMap((branch) => (branch?.description ? [branch.description as string] : []))];
}

const isObject = (schema: Schema) => schema.type === "object" || schema.properties !== undefined;
const variantsOf = (schema: Schema): unknown[] | undefined => schema.oneOf ?? schema.anyOf;

/** A one-line type: `string`, `integer | null`, `array of string`, `object`, `string or integer`. */
export function typeOf(document: unknown, node: unknown, seen: string[] = []): string {
  const schema = merged(document, node) as Schema | boolean | undefined;
  if (schema === true || schema === false || schema === undefined) return "any";
  if (schema.const !== undefined) return `${typeof schema.const === "string" ? "string" : typeof schema.const} (always ${JSON.stringify(schema.const)})`;
  const variants = variantsOf(schema);
  if (variants && !isObject(schema)) {
    const names = [...new Set(variants.map((v) => typeOf(document, v, seen)))];
    return names.join(" or ");
  }
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : isObject(schema) ? ["object"] : [];
  const label = types.map((type) => {
    if (type !== "array") return type;
    const ref = (schema.items as { $ref?: string } | undefined)?.$ref;
    if (ref && seen.includes(ref)) return "array";
    return `array of ${typeOf(document, schema.items ?? true, ref ? [...seen, ref] : seen)}`;
  });
  return label.join(" | ") || "any";
}

/** Limits and facts of a schema in words. */
export function constraintsOf(document: unknown, node: unknown): string[] {
  const schema = merged(document, node);
  if (!schema || typeof schema !== "object") return [];
  const out: string[] = [];
  const range = (min: number | undefined, max: number | undefined, unit: string) => {
    if (min !== undefined && max !== undefined) out.push(min === max ? `exactly ${min}${unit}` : `${min}–${max}${unit}`);
    else if (min !== undefined) out.push(`at least ${min}${unit}`);
    else if (max !== undefined) out.push(`at most ${max}${unit}`);
  };
  if (Array.isArray(schema.enum)) out.push(`one of ${schema.enum.map(json).join(", ")}`);
  range(schema.minLength, schema.maxLength, " characters");
  range(schema.minimum, schema.maximum, "");
  if (schema.exclusiveMinimum !== undefined) out.push(`above ${schema.exclusiveMinimum}`);
  if (schema.exclusiveMaximum !== undefined) out.push(`below ${schema.exclusiveMaximum}`);
  range(schema.minItems, schema.maxItems, " items");
  if (schema.uniqueItems) out.push("no duplicates");
  if (schema.format) out.push(`format ${code(schema.format)}`);
  if (schema.pattern) out.push(`pattern ${code(schema.pattern)}`);
  if (schema.default !== undefined) out.push(`default ${json(schema.default)}`);
  if (schema.readOnly) out.push("read-only");
  if (schema.writeOnly) out.push("write-only");
  // Items of an array carry their own limits (`array of string`, each 1–64 characters).
  if (schema.type === "array" && schema.items) {
    const items = constraintsOf(document, schema.items);
    if (items.length) out.push(`each: ${items.join(", ")}`);
  }
  // A union of plain values (a timestamp or `now`, a user id or an e-mail address): each branch with its own limits.
  const variants = variantsOf(schema);
  if (variants && !isObject(schema)) {
    const branches = variants.map((variant) => {
      const inner = constraintsOf(document, variant);
      return `${typeOf(document, variant)}${inner.length ? ` (${inner.join(", ")})` : ""}`;
    });
    if (branches.some((branch) => branch.includes("("))) out.push(`either ${branches.join(" or ")}`);
  }
  return out;
}

const descriptionOf = (document: unknown, node: unknown): string => {
  const own = (node as Schema | undefined)?.description;
  if (typeof own === "string") return own;
  const schema = merged(document, node);
  return typeof schema?.description === "string" ? schema.description : "";
};

/** The fields of an object schema (merged), or of an array's object items; undefined for a plain value. */
function childrenOf(document: unknown, node: unknown, seen: string[]): Pick<Shape, "fields" | "variants" | "rules" | "closed"> {
  const ref = (node as { $ref?: string } | undefined)?.$ref;
  if (ref && seen.includes(ref)) return {};
  const next = ref ? [...seen, ref] : seen;
  const schema = merged(document, node);
  if (!schema || typeof schema !== "object") return {};
  if (schema.type === "array" && schema.items) return childrenOf(document, schema.items, next);
  const variants = variantsOf(schema);
  const objectVariants = variants?.map((v) => merged(document, v)).filter(isObject) ?? [];
  if (variants && objectVariants.length === variants.length && objectVariants.length > 0) {
    return {
      variants: variants.map((variant, i) => {
        const resolved = merged(document, variant);
        const discriminator = schema.discriminator?.propertyName as string | undefined;
        const tag = discriminator ? resolved.properties?.[discriminator] : undefined;
        const tagValue = tag ? deref<Schema>(document, tag).const : undefined;
        return {
          title: (resolved.title as string | undefined) ?? (tagValue !== undefined ? `${discriminator}: ${tagValue}` : `Variant ${i + 1}`),
          description: (resolved.description as string | undefined) ?? "",
          ...objectParts(document, variant, next),
        };
      }),
      rules: rulesOf(schema),
    };
  }
  if (!isObject(schema)) return {};
  return objectParts(document, node, next);
}

function objectParts(document: unknown, node: unknown, seen: string[]): { fields: Field[]; rules: string[]; closed: boolean } {
  const schema = merged(document, node);
  const required = new Set<string>(schema.required ?? []);
  const fields = Object.entries<unknown>(schema.properties ?? {})
    .filter(([, property]) => property !== false)
    .map(([name, property]) => fieldOf(document, name, property, required.has(name), seen));
  return { fields, rules: rulesOf(schema), closed: schema.additionalProperties === false || schema.unevaluatedProperties === false };
}

function fieldOf(document: unknown, name: string, node: unknown, required: boolean, seen: string[]): Field {
  const schema = merged(document, node);
  const own = node as Schema;
  const deprecated = own.deprecated || schema.deprecated;
  return {
    name,
    type: typeOf(document, node, seen),
    required,
    description: descriptionOf(document, node),
    constraints: constraintsOf(document, node),
    ...(deprecated ? { deprecated: { at: own["x-deprecated-at"] ?? schema["x-deprecated-at"], sunset: own["x-sunset"] ?? schema["x-sunset"] } } : {}),
    ...childrenOf(document, node, seen),
  };
}

/** A schema (a request or response body, a parameter's) as the reader's model. */
export function shapeOf(document: unknown, node: unknown): Shape {
  return {
    type: typeOf(document, node),
    description: descriptionOf(document, node),
    constraints: constraintsOf(document, node),
    ...childrenOf(document, node, []),
  };
}

/** Every field of a shape, depth first, with its dotted path (`result.domain.id`, `errors[].in`). */
export function flatten(fields: Field[] | undefined, prefix = ""): { path: string; field: Field }[] {
  return (fields ?? []).flatMap((field) => {
    const path = `${prefix}${field.name}`;
    const below = field.type.startsWith("array") ? `${path}[].` : `${path}.`;
    return [
      { path, field },
      ...flatten(field.fields, below),
      ...(field.variants ?? []).flatMap((variant) => flatten(variant.fields, `${below.slice(0, -1)} (${variant.title}).`)),
    ];
  });
}
