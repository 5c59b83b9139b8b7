// The prose of a bundled document: summaries, descriptions, schema titles, comments, examples,
// tags and external docs, written for readers and read by no validator. `dropProse` takes it
// out of a copy, in place, walking the document by its structure (a property or parameter
// called `description` is a name, not prose; a default value is data), so what is built from
// the rest (the precompiled validators, generated/validators.cjs) changes only when
// something a validator reads changes.

import { httpMethods } from "./walk.js";

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => value !== null && typeof value === "object" && !Array.isArray(value);
const each = (value: unknown, visit: (node: unknown) => void) => {
  if (Array.isArray(value)) value.forEach(visit);
  else if (isNode(value)) Object.values(value).forEach(visit);
};

const schemaProse = ["title", "description", "$comment", "examples", "example", "externalDocs"];
/** JSON Schema keywords holding one subschema (or, for draft-04 `items`, a list). */
const subschema = [
  "items",
  "additionalItems",
  "contains",
  "additionalProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
];
/** Keywords holding a list of subschemas, or a map of names to subschemas. */
const subschemas = ["allOf", "anyOf", "oneOf", "prefixItems", "properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

function schema(node: unknown): void {
  if (!isNode(node)) return;
  const keys = Object.keys(node).length;
  for (const key of schemaProse) delete node[key];
  // A `$ref` that had prose beside it keeps one key, emptied: left alone, it is a reference
  // to a reference, which eov's `$ref` bundling rewrites through (a bundled document it
  // would otherwise leave as it is, a start-up step skipped: precompiled.ts).
  if (typeof node.$ref === "string" && keys > 1 && Object.keys(node).length === 1) node.description = "";
  for (const key of subschema) {
    if (Array.isArray(node[key])) each(node[key], schema);
    else schema(node[key]);
  }
  for (const key of subschemas) each(node[key], schema);
}

function content(node: unknown): void {
  each(node, (media) => isNode(media) && schema(media.schema));
}

/** A parameter or header: its description, and its schema's or content's prose. */
function parameter(node: unknown): void {
  if (!isNode(node)) return;
  delete node.description;
  schema(node.schema);
  content(node.content);
}

function described(node: unknown): void {
  if (!isNode(node)) return;
  delete node.description;
  content(node.content);
  each(node.headers, parameter);
}

function operation(node: unknown): void {
  if (!isNode(node)) return;
  for (const key of ["summary", "description", "tags", "externalDocs"]) delete node[key];
  each(node.parameters, parameter);
  described(node.requestBody);
  each(node.responses, described);
}

/** Takes the prose out of `document` (a bundled OpenAPI document, changed in place) and returns it. */
export function dropProse<T>(document: T): T {
  const root = document as Node;
  each(root.paths, (item) => {
    if (!isNode(item)) return;
    delete item.summary;
    delete item.description;
    each(item.parameters, parameter);
    for (const method of httpMethods) operation(item[method]);
  });
  const components = isNode(root.components) ? root.components : {};
  each(components.schemas, schema);
  each(components.parameters, parameter);
  each(components.headers, parameter);
  each(components.responses, described);
  each(components.requestBodies, described);
  each(components.securitySchemes, (scheme) => isNode(scheme) && delete scheme.description);
  return document;
}
