// Keys named after Object.prototype members (`constructor`, `toString`, `__proto__`, …) are
// unknown keys like any other: every request body the document closes (`additionalProperties:
// false` or `unevaluatedProperties: false`) refuses each of them with 400 naming it, for each of the
// operation's request examples (one per union variant). The operations and examples are
// read from the document, so a new closed body is covered without editing this file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../server/reference-server.js";
import { appA } from "../support/demo.js";
import { deref, operation, requestExamples, type Node } from "../support/document.js";
import { credentialsFor, operationIds, validRequest } from "../support/requests.js";

/** True when the schema, or one it reaches through $ref and the applicators, is closed (`additionalProperties` or `unevaluatedProperties` false). */
function closesUnevaluated(schema: Node, seen = new Set<Node>()): boolean {
  const node = deref(schema);
  if (node === null || typeof node !== "object" || seen.has(node)) return false;
  seen.add(node);
  if (node.unevaluatedProperties === false || node.additionalProperties === false) return true;
  return Object.values<Node>(node).some((child) => (Array.isArray(child) ? child.some((c) => closesUnevaluated(c, seen)) : closesUnevaluated(child, seen)));
}

const closedBodies = operationIds.filter((id) => {
  const media = deref(operation(id).requestBody)?.content?.["application/json"];
  return media !== undefined && closesUnevaluated(media.schema);
});
const prototypeNames = Object.getOwnPropertyNames(Object.prototype);

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ rateLimit: false, failedAuthLimit: false });
});
afterAll(() => server?.close());

describe("keys named after Object.prototype members", () => {
  it("the document closes the bodies of createNotification and saveEmailTransport at least", () => {
    expect(closedBodies).toEqual(expect.arrayContaining(["createNotification", "saveEmailTransport"]));
    expect(prototypeNames).toEqual(expect.arrayContaining(["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]));
  });

  const cases = closedBodies.flatMap((operationId) =>
    requestExamples(operationId).flatMap(([example, body]) => prototypeNames.map((key) => [operationId, example, key, body] as const)),
  );
  it.each(cases)("%s (%s example) refuses the key %s", async (operationId, _example, key, body) => {
    const { method, path } = validRequest(operationId);
    // Spliced into the JSON text: `{ ...body, __proto__: 1 }` would set the prototype instead.
    const text = JSON.stringify(body).replace(/}$/, `${Object.keys(body as object).length > 0 ? "," : ""}${JSON.stringify(key)}:1}`);
    const res = await fetch(`${server.url}${path}`, { method, headers: { ...credentialsFor(operationId, appA), "content-type": "application/json" }, body: text });
    const problem = (await res.json()) as { code: string; errors?: { in: string; pointer?: string; message: string }[] };
    expect({ status: res.status, code: problem.code }).toEqual({ status: 400, code: "validation_failed" });
    expect(problem.errors).toContainEqual(expect.objectContaining({ in: "body", pointer: `/${key}` }));
  });

  it("each example as given is accepted (the refusals above are the key's doing)", async () => {
    for (const operationId of closedBodies) {
      const { method, path } = validRequest(operationId);
      expect(requestExamples(operationId).length, operationId).toBeGreaterThan(0);
      for (const [, body] of requestExamples(operationId)) {
        const res = await fetch(`${server.url}${path}`, {
          method,
          headers: { ...credentialsFor(operationId, appA), "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        expect(res.status, `${operationId} ${JSON.stringify(body)}`).toBe(200);
      }
    }
  });
});
