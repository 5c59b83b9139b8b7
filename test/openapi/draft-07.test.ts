// The request bodies under Ajv's default class (draft-07), the dialect many peers validate
// with (openapi-backend, Fastify's Ajv), which ignores `unevaluatedProperties`: a body closed
// only that way took unknown fields there. This is the dialect, read by an Ajv of this file's
// own (`strict: false, allErrors: true`); the peers themselves, each at its own options, are
// test/peers/matrix.test.ts. The document closes each variant with `additionalProperties:
// false` over properties listed by `$ref`, which both dialects read alike. Here, for every
// request body of the document: draft-07 refuses an unknown field (`bogus`) on each example
// (one per variant), accepts the examples, and agrees with the document's own 2020-12
// validator on bodies generated from the schema (the fuzz suite's generator, as a
// property-based tool builds them) and on those bodies with a field added, so the accepted
// and refused sets are the same in both dialects.
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { absoluteRefs, schemaBase } from "../../server/document/walk.js";
import { arbitrary } from "../fuzz/schema-arbitrary.js";
import { deref, doc, operation, requestExamples, validator } from "../support/document.js";
import { operationIds } from "../support/requests.js";

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Ajv's default class: JSON Schema draft-07. */
const draft07 = new Ajv({ strict: false, allErrors: true });
addFormats(draft07);
draft07.addSchema({ $id: schemaBase, components: absoluteRefs(doc.components) });

const bodies = operationIds.flatMap((operationId) => {
  const schema = deref(operation(operationId).requestBody)?.content?.["application/json"]?.schema;
  return schema === undefined ? [] : [{ operationId, schema, draft07: draft07.compile(absoluteRefs(schema)) as ValidateFunction, draft2020: validator(schema) }];
});

describe("request bodies under a draft-07 validator (Ajv's default class)", () => {
  it("covers every request body of the document", () => {
    expect(bodies.map((body) => body.operationId).sort()).toEqual(["createNotification", "saveEmailTransport", "updateSmsProvider"]);
  });

  describe.each(bodies.map((body) => [body.operationId, body] as const))("%s", (_, body) => {
    const examples = requestExamples(body.operationId);

    it.each(examples.map(([name, value]) => [name, value] as const))("accepts the %s example and refuses it with an unknown field `bogus`", (_name, value) => {
      expect(body.draft07(value), JSON.stringify(body.draft07.errors)).toBe(true);
      const withBogus = { ...(value as object), bogus: 1 };
      expect(body.draft07(withBogus)).toBe(false);
      expect(body.draft07.errors).toContainEqual(expect.objectContaining({ keyword: "additionalProperties", params: { additionalProperty: "bogus" } }));
      expect(body.draft2020(withBogus)).toBe(false);
    });

    it("gives the 2020-12 verdict on generated bodies, and on them with a field added", () => {
      let valid = 0;
      fc.assert(
        fc.property(arbitrary(body.schema), fc.constantFrom("bogus", "type", "title", "auth", "constructor"), (generated, extra) => {
          const verdict = body.draft2020(generated);
          if (verdict) valid++;
          expect(body.draft07(generated)).toBe(verdict);
          if (generated !== null && typeof generated === "object" && !Array.isArray(generated)) {
            const added = { ...generated, [extra]: 1 };
            expect(body.draft07(added)).toBe(body.draft2020(added));
          }
        }),
        { numRuns: 300, seed: 28 },
      );
      // The generator aims at valid bodies: most must be, or the agreement says little.
      expect(valid).toBeGreaterThan(100);
    });
  });
});
