// Each operation's error examples say what that operation would say, so the docs and the
// mock (which serves them on `Prefer: code=…`) never show another operation's path: the
// 400/401/404 examples name the operation's own path in `instance`, its own credential
// scheme in the 401, and one of its own parameters or body fields in the 400.
import { describe, expect, it } from "vitest";
import { bodySchema, deref, operations, parameters, propertyDeclarations, type Node } from "./document.js";

const perOperationStatuses = ["400", "401", "404"];

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
  return operations().filter(({ op }) => Object.values<Node>(op.responses).some((r) => r.$ref === ref)).map(({ op }) => op.operationId);
}

const all = operations().map((o) => ({ ...o, pattern: pathPattern(o.path) }));

describe("error examples per operation", () => {
  it("the path matcher tells a webhook from its history", () => {
    const webhook = pathPattern("/webhooks/{id}");
    expect(webhook.test("/v1/webhooks/whk_1")).toBe(true);
    expect(webhook.test("/v1/webhooks/whk_1/history")).toBe(false);
    expect(pathPattern("/webhooks").test("/v1/webhooks?limit=5")).toBe(true);
  });

  describe.each(all.map((o) => [`${o.method} ${o.path}`, o] as const))("%s", (_, { op, pattern }) => {
    it("400, 401 and 404 examples name this operation's path and no other's", () => {
      for (const status of perOperationStatuses.filter((s) => op.responses[s])) {
        const values = examples(op, status);
        expect(values.length, status).toBeGreaterThan(0);
        for (const example of values) {
          expect(example.instance, `${status} instance`).toMatch(pattern);
          const others = all.filter((o) => o.op !== op && o.pattern.test(example.instance));
          expect(others.map((o) => o.op.operationId), `${status} instance`).toEqual([]);
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
            const field = String(error.pointer).split("/")[1]!;
            expect(op.requestBody, "a body error on an operation without a body").toBeDefined();
            expect(propertyDeclarations(bodySchema(op), field).length, `body field ${field}`).toBeGreaterThan(0);
          } else {
            expect([...own], `${error.in} ${error.name}`).toContain(`${error.in}:${error.name}`);
          }
        }
      }
    });
  });

  it("a component shared by several operations is not a 400, 401 or 404, and its example names a path of one of them", () => {
    const shared = new Set(all.flatMap(({ op }) => Object.entries<Node>(op.responses).filter(([s]) => !s.startsWith("2"))));
    for (const [status, response] of shared) {
      const users = usersOf(response.$ref);
      if (users.length === 1) continue;
      expect(perOperationStatuses, `${response.$ref} is shared`).not.toContain(status);
      for (const example of examples({ responses: { [status]: response } }, status)) {
        const owners = all.filter((o) => users.includes(o.op.operationId) && o.pattern.test(example.instance));
        expect(owners.length, `${response.$ref}: ${example.instance}`).toBeGreaterThan(0);
      }
    }
  });
});
