// The error model of docs/decisions.md: one RFC 9457 problem schema; a response component per
// operation for 400, 401 and 404 (they name the operation's path, scheme and parameters), one
// per status for the rest, each with an example.
import { describe, expect, it } from "vitest";
import { check, deref, doc, operations, type Node } from "./document.js";

// docs/decisions.md, "Errors": status -> stable code.
const codes: Record<string, string> = {
  "400": "validation_failed",
  "401": "unauthorized",
  "404": "not_found",
  "405": "method_not_allowed",
  "409": "conflict",
  "413": "payload_too_large",
  "415": "unsupported_media_type",
  "429": "rate_limited",
  "500": "internal_error",
  // A server backed by a database that it cannot reach (the PostgreSQL store).
  "503": "service_unavailable",
};

/** The statuses whose response component is the operation's own, and the component's suffix. */
const perOperation = new Map([
  ["400", "ValidationFailed"],
  ["401", "Unauthorized"],
  ["404", "NotFound"],
]);

/** The statuses an operation must document, by docs/decisions.md. */
function expectedStatuses(method: string, path: string, op: Node): string[] {
  // 501: a service adopting the contract one operation at a time answers it (docs/backend.md).
  const statuses = ["400", "401", "429", "500", "501", "503"];
  if (path.includes("{id}")) statuses.push("404");
  if (op.requestBody) statuses.push("413", "415");
  if (method === "PUT" && path === "/sms/providers/{id}") statuses.push("409");
  return statuses.sort();
}

describe("error model", () => {
  it("Problem has the RFC 9457 fields plus code, errors and errors_omitted, and nothing else", () => {
    const problem = doc.components.schemas.Problem;
    expect(Object.keys(problem.properties).sort()).toEqual(["code", "detail", "errors", "errors_omitted", "instance", "status", "title", "type"]);
    expect(problem.required.sort()).toEqual(["code", "detail", "instance", "status", "title", "type"]);
    expect(problem.additionalProperties).toBe(false);
    expect(problem.properties.type.format).toBe("uri-reference");
    expect(problem.properties.status.type).toBe("integer");
    // Every code of docs/decisions.md, plus malformed_json for unparsable bodies.
    // 408 and 431 are Node's own answers to a client before any operation is matched
    // (server/middleware/client-error.ts): codes of the schema, statuses of no operation.
    expect([...problem.properties.code.enum].sort()).toEqual([...Object.values(codes), "malformed_json", "request_timeout", "headers_too_large"].sort());
    const error = deref(problem.properties.errors.items);
    expect(error.properties.in.enum).toEqual(["path", "query", "header", "body"]);
    expect(Object.keys(error.properties).sort()).toEqual(["in", "message", "name", "pointer"]);
    expect(error.additionalProperties).toBe(false);
  });

  it.each(operations().map((o) => [`${o.method} ${o.path}`, o.method, o.path, o.op]))("%s documents exactly its error statuses", (_, method, path, op) => {
    const statuses = Object.keys(op.responses)
      .filter((s) => !s.startsWith("2"))
      .sort();
    expect(statuses).toEqual(expectedStatuses(method, path, op));
  });

  // 409-503 are written once in openapi/components/responses; the bundle gives every operation
  // but the one their example names a copy of its own (scripts/own-error-examples.ts).
  it("gives each operation its own component for every error status", () => {
    const componentByStatus = new Map<string, Set<string>>();
    const all: string[] = [];
    for (const { op } of operations()) {
      const own = `#/components/responses/${op.operationId[0].toUpperCase()}${op.operationId.slice(1)}`;
      for (const [status, response] of Object.entries<Node>(op.responses)) {
        if (status.startsWith("2")) continue;
        expect(response.$ref, `${op.operationId} ${status} is inline`).toMatch(/^#\/components\/responses\//);
        componentByStatus.set(status, (componentByStatus.get(status) ?? new Set()).add(response.$ref));
        all.push(response.$ref);
      }
      // 400, 401 and 404 are each operation's own from the source on; every operation has the first two.
      const perOperationStatuses = [...perOperation.keys()].filter((status) => op.responses[status]);
      expect(perOperationStatuses, op.operationId).toEqual(expect.arrayContaining(["400", "401"]));
      expect(Object.fromEntries(perOperationStatuses.map((status) => [status, op.responses[status].$ref]))).toEqual(
        Object.fromEntries(perOperationStatuses.map((status) => [status, `${own}${perOperation.get(status)}`])),
      );
    }
    for (const [status, refs] of componentByStatus) {
      const users = operations().filter((o) => o.op.responses[status]).length;
      expect([...refs], status).toHaveLength(users);
    }
    // No component serves two statuses.
    expect(new Set(all).size).toBe([...componentByStatus.values()].reduce((n, refs) => n + refs.size, 0));
  });

  it.each(Object.keys(codes).filter((s) => s !== "405"))("every %s response is problem+json with a matching example", (status) => {
    const responses = operations().flatMap((o) => (o.op.responses[status] ? [deref(o.op.responses[status])] : []));
    expect(responses.length).toBeGreaterThan(0);
    for (const response of responses) {
      expect(response.description).toMatch(new RegExp(`^${status}\\b`));
      expect(Object.keys(response.content)).toEqual(["application/problem+json"]);
      const media = response.content["application/problem+json"];
      expect(media.schema.$ref).toBe("#/components/schemas/Problem");
      const examples = Object.values<Node>(media.examples ?? {}).map((e) => deref(e).value);
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) {
        expect(check(media.schema, example)).toEqual({ valid: true, errors: "" });
        expect(example.status).toBe(Number(status));
        // A 400 is `validation_failed`, or `malformed_json` for a body that is not JSON.
        expect(status === "400" ? ["validation_failed", "malformed_json"] : [codes[status]]).toContain(example.code);
        expect(example.type).toMatch(new RegExp(`/${example.code}$`));
        expect(example.instance).toMatch(/^\/v1\//);
      }
      expect(Object.keys(response.headers)).toContain("X-Request-Id");
    }
  });

  it("429 and 503 tell when to retry; every 400 names each offending value", () => {
    const rateLimited = deref(operations()[0]!.op.responses["429"]);
    expect(Object.keys(rateLimited.headers)).toContain("Retry-After");
    expect(Object.keys(deref(operations()[0]!.op.responses["503"]).headers)).toContain("Retry-After");
    for (const { op } of operations()) {
      const invalid = deref(op.responses["400"]).content["application/problem+json"];
      for (const example of Object.values<Node>(invalid.examples)) expect(deref(example).value.errors.length, op.operationId).toBeGreaterThan(0);
    }
  });

  it("no error example carries a secret, a stack trace or a file path", () => {
    const text = JSON.stringify(doc.components.examples);
    for (const secret of ["ak_live_", "as_live_"]) expect(text).not.toContain(secret);
    for (const name of Object.keys(doc.components.examples).filter((n) => n.endsWith("Problem"))) {
      const body = JSON.stringify(doc.components.examples[name].value);
      expect(body, name).not.toMatch(/\bat .+:\d+:\d+|\/work\/|node_modules|\.ts\b/);
    }
  });
});
