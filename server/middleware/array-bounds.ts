// Arrays longer than their `maxItems` are refused before the body reaches the validator:
// with `allErrors` Ajv walks and reports every item, so 33,000 invalid items cost ~0.5 s of
// CPU and a 7 MB error list. Bounds come from each operation's request-body schema.
import type { RequestHandler } from "express";
import type { OperationObject, ReferenceObject, SchemaObject } from "../document/types.js";
import { ApiProblem, type ProblemErrorItem } from "../problems.js";
import { resolveRef, type ApiDocument } from "../document/load.js";
import { describeErrors } from "./validation-errors.js";

type Schema = SchemaObject & { allOf?: unknown[]; anyOf?: unknown[]; oneOf?: unknown[] };

/**
 * Every array of a schema with its `maxItems`, keyed by JSON pointer with `*` for any array
 * index (`/choices/*\/options`). Where alternatives bound one place differently, the largest
 * bound is kept: the validator still applies the exact one.
 */
export function arrayBounds(document: ApiDocument, root: unknown): Map<string, number> {
  const bounds = new Map<string, number>();
  const visit = (node: unknown, pointer: string, refs: readonly string[]) => {
    if (!node || typeof node !== "object") return;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string") {
      if (refs.includes(ref)) return; // a recursive schema: its bounds are already recorded
      visit(resolveRef(document, node as ReferenceObject), pointer, [...refs, ref]);
    }
    const schema = node as Schema;
    if (typeof schema.maxItems === "number") bounds.set(pointer, Math.max(bounds.get(pointer) ?? 0, schema.maxItems));
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      visit(property, `${pointer}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`, refs);
    }
    if ("items" in schema) visit(schema.items, `${pointer}/*`, refs);
    for (const branch of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) visit(branch, pointer, refs);
  };
  visit(root, "", []);
  return bounds;
}

/**
 * One error per array of `body` longer than its bound (the items of such an array are not
 * looked at). Only the places the bounds name are visited, so a deeply nested body costs no
 * more than the schema's own depth.
 */
export function oversizeArrays(body: unknown, bounds: Map<string, number>): ProblemErrorItem[] {
  const prefixes = new Set<string>();
  for (const pattern of bounds.keys()) {
    for (let end = pattern.indexOf("/", 1); end !== -1; end = pattern.indexOf("/", end + 1)) prefixes.add(pattern.slice(0, end));
    prefixes.add(pattern);
  }
  const errors: ProblemErrorItem[] = [];
  const walk = (value: unknown, pointer: string, pattern: string) => {
    if (Array.isArray(value)) {
      const bound = bounds.get(pattern);
      if (bound !== undefined && value.length > bound) {
        errors.push({ in: "body", pointer, message: `must NOT have more than ${bound} items` });
        return;
      }
      if (prefixes.has(`${pattern}/*`)) value.forEach((item, i) => walk(item, `${pointer}/${i}`, `${pattern}/*`));
    } else if (value && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        const token = key.replace(/~/g, "~0").replace(/\//g, "~1");
        if (prefixes.has(`${pattern}/${token}`)) walk(item, `${pointer}/${token}`, `${pattern}/${token}`);
      }
    }
  };
  walk(body, "", "");
  return errors;
}

/** The check of one operation's body (after the JSON parser, before the validator), or none when its body bounds no array. */
export function arrayBoundsFor(document: ApiDocument, operation: OperationObject): RequestHandler | undefined {
  const body = operation.requestBody ? resolveRef<{ content?: Record<string, { schema?: unknown }> }>(document, operation.requestBody as { $ref: string }) : undefined;
  const schema = body?.content?.["application/json"]?.schema;
  if (!schema) return undefined;
  const bounds = arrayBounds(document, schema);
  if (bounds.size === 0) return undefined;
  return (req, _res, next) => {
    const errors = oversizeArrays(req.body, bounds);
    next(errors.length ? new ApiProblem("validation_failed", describeErrors(errors), errors) : undefined);
  };
}
