// Each operation's error examples say what that operation would say, so the docs and the
// mock (which serves them on `Prefer: code=…`) never show another operation's path: every
// error example names the operation's own path in `instance` (409-503 are written once and
// copied per operation into the bundle), the 401 its own credential scheme, and the 400 one
// of its own parameters or body fields.
import { describe, expect, it } from "vitest";
import { bodySchema, deref, operations, parameters, propertyDeclarations, type Node } from "./document.js";

const errorStatuses = (op: Node) => Object.keys(op.responses).filter((status) => !status.startsWith("2"));

/** A matcher for the concrete request paths of a path template, under /v1 (query ignored). */
function pathPattern(template: string): RegExp {
  const segments = template.split("/").map((s) => (/^\{.+\}$/.test(s) ? "[^/?]+" : s.replace(/[.*+?^$()|[\]\\]/g, "\\$&")));
  return new RegExp(`^/v1${segments.join("/")}(?:\\?.*)?$`);
}

/** The example values of the operation's response for `status`. */
function examples(op: Node, status: string): Node[] {
  const response = op.responses[status] ? deref(op.responses[status]) : undefined;
  const media = response?.content?.["application/problem+json"];
  return Object.values<Node>(media?.examples ?? {}).map((e) => deref(e).value);
}

/** The operations that reference a response component. */
function usersOf(ref: string): string[] {
  return operations()
    .filter(({ op }) => Object.values<Node>(op.responses).some((r) => r.$ref === ref))
    .map(({ op }) => op.operationId);
}

const all = operations().map((o) => ({ ...o, pattern: pathPattern(o.path) }));

describe("error examples per operation", () => {
  it("the path matcher tells a webhook from its history", () => {
    const webhook = pathPattern("/webhooks/{id}");
    expect(webhook.test("/v1/webhooks/whk_1")).toBe(true);
    expect(webhook.test("/v1/webhooks/whk_1/history")).toBe(false);
    expect(pathPattern("/webhooks").test("/v1/webhooks?limit=5")).toBe(true);
  });

  describe.each(all.map((o) => [`${o.method} ${o.path}`, o] as const))("%s", (_, { op, path, pattern }) => {
    // Two methods of one path (GET and DELETE /webhooks/{id}) share the path their examples name.
    it("every error example names this operation's path and no other path", () => {
      for (const status of errorStatuses(op)) {
        const values = examples(op, status);
        expect(values.length, status).toBeGreaterThan(0);
        for (const example of values) {
          expect(example.instance, `${status} instance`).toMatch(pattern);
          const others = all.filter((o) => o.path !== path && o.pattern.test(example.instance));
          expect(
            others.map((o) => o.op.operationId),
            `${status} instance`,
          ).toEqual([]);
        }
      }
    });

    it("the 401 example names this operation's credential scheme, not the other one", () => {
      const bearer = op.security.some((requirement: object) => "bearerAuth" in requirement);
      for (const example of examples(op, "401")) {
        if (bearer) {
          expect(example.detail).toMatch(/Bearer/);
          expect(example.detail).not.toMatch(/X-Api-(Key|Secret)/i);
        } else {
          expect(example.detail).toMatch(/X-Api-Key|X-Api-Secret/);
          expect(example.detail).not.toMatch(/Bearer/);
        }
      }
    });

    it("the 400 example names one of this operation's own parameters or body fields", () => {
      const own = new Set(parameters(op).map((p) => `${p.in}:${p.name}`));
      for (const example of examples(op, "400")) {
        expect(example.errors.length).toBeGreaterThan(0);
        for (const error of example.errors) {
          if (error.in === "body") {
            expect(op.requestBody, "a body error on an operation without a body").toBeDefined();
            // The empty pointer is the whole body (malformed_json); any other names a field.
            const field = String(error.pointer).split("/")[1];
            const declared = field === undefined ? [bodySchema(op)] : propertyDeclarations(bodySchema(op), field);
            expect(declared.length, `body field ${field}`).toBeGreaterThan(0);
          } else {
            expect([...own], `${error.in} ${error.name}`).toContain(`${error.in}:${error.name}`);
          }
        }
      }
    });
  });

  it.each(all.filter(({ op }) => op.requestBody).map((o) => [`${o.method} ${o.path}`, o] as const))(
    "%s shows the malformed_json 400 the server answers to a body that is not JSON",
    (_, { op }) => {
      const malformed = examples(op, "400").filter((example) => example.code === "malformed_json");
      expect(malformed).toHaveLength(1);
      expect(malformed[0]).toMatchObject({ status: 400, title: "Malformed JSON", errors: [{ in: "body", pointer: "" }] });
    },
  );

  it("no error component serves two operations", () => {
    const refs = all.flatMap(({ op }) => errorStatuses(op).map((status) => op.responses[status].$ref));
    for (const ref of new Set(refs)) expect(usersOf(ref), ref).toHaveLength(1);
  });
});
