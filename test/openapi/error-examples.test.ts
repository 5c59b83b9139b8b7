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
      expect(errorStatuses(op)).toContain("401");
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
      const [own, other] = bearer ? [/Bearer/, /X-Api-(Key|Secret)/i] : [/X-Api-Key|X-Api-Secret/, /Bearer/];
      const details = examples(op, "401").map((example) => example.detail);
      expect(details.length).toBeGreaterThan(0);
      for (const detail of details) {
        expect(detail).toMatch(own);
        expect(detail).not.toMatch(other);
      }
    });

    it("the 400 example names one of this operation's own parameters or body fields", () => {
      const own = new Set(parameters(op).map((p) => `${p.in}:${p.name}`));
      const values = examples(op, "400");
      expect(values.length).toBeGreaterThan(0);
      for (const example of values) expect(example.errors.length).toBeGreaterThan(0);
      const errors: Node[] = values.flatMap((example) => example.errors);
      // The empty pointer is the whole body (malformed_json); any other names a field.
      const declared = (pointer: unknown) => {
        const field = String(pointer).split("/")[1];
        return field === undefined ? [bodySchema(op)] : propertyDeclarations(bodySchema(op), field);
      };
      const body = errors.filter((error) => error.in === "body");
      expect(body.length === 0 || op.requestBody !== undefined, "a body error on an operation without a body").toBe(true);
      expect(
        body.filter((error) => declared(error.pointer).length === 0).map((error) => error.pointer),
        "body fields not declared",
      ).toEqual([]);
      expect(
        errors.filter((error) => error.in !== "body" && !own.has(`${error.in}:${error.name}`)).map((error) => `${error.in} ${error.name}`),
        "parameters not of this operation",
      ).toEqual([]);
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
