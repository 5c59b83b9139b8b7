// The nine operations exactly as the source's endpoint table (docs/decisions.md, Operations) gives
// them: method, path relative to a `/v1` server, and the response `type` as a `const`.
import { describe, expect, it } from "vitest";
import { deref, doc, operation, operations, successSchema } from "./document.js";

// The endpoint table, written out (`:id` as OpenAPI's `{id}`), with the operationIds
// that key the handlers and generated types, and whether the operation answers a list.
const endpoints = [
  { n: "4.1", method: "GET", path: "/widgets/{id}", type: "api.application.widget.read", operationId: "readWidget", list: false },
  { n: "4.2", method: "GET", path: "/users/{id}/activity", type: "api.application.user.activity.find", operationId: "findUserActivity", list: true },
  { n: "4.3", method: "GET", path: "/reports/encryption", type: "api.application.reports.encryption", operationId: "findEncryptionReports", list: true },
  { n: "4.4", method: "PUT", path: "/sms/providers/{id}", type: "api.application.sms.provider.update", operationId: "updateSmsProvider", list: false },
  { n: "4.5", method: "POST", path: "/custom/emails", type: "api.application.email.save", operationId: "saveEmailTransport", list: false },
  { n: "4.6", method: "POST", path: "/notifications", type: "api.application.notification.create", operationId: "createNotification", list: false },
  { n: "4.7", method: "GET", path: "/webhooks/{id}", type: "api.application.webhook.read", operationId: "readWebhook", list: false },
  { n: "4.8", method: "GET", path: "/webhooks/{id}/history", type: "api.application.webhook.history", operationId: "findWebhookHistory", list: true },
  { n: "4.9", method: "GET", path: "/webhooks", type: "api.application.webhook.find", operationId: "findWebhooks", list: true },
] as const;

describe("operations", () => {
  it("are exactly the nine of the source, no more", () => {
    const actual = operations()
      .map((o) => `${o.method} ${o.path}`)
      .sort();
    expect(actual).toEqual(endpoints.map((e) => `${e.method} ${e.path}`).sort());
  });

  it("are served under /v1: production (HTTPS) first, then the mock and the local server", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.jsonSchemaDialect).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(doc.servers[0].url).toMatch(/^https:\/\/[^/]+\/v1$/);
    expect(doc.servers.slice(1).map((s: { url: string }) => s.url)).toEqual(["http://127.0.0.1:4010/v1", "http://127.0.0.1:3000/v1"]);
    // No path repeats the version: it lives in the server URL only.
    for (const path of Object.keys(doc.paths)) expect(path.startsWith("/v1")).toBe(false);
  });

  it.each(endpoints)("$n $method $path answers 200 with type $type as a const", (e) => {
    const op = operation(e.method, e.path);
    expect(op.operationId).toBe(e.operationId);
    expect(Object.keys(op.responses).filter((s) => s.startsWith("2"))).toEqual(["200"]);
    const envelope = deref(successSchema(op));
    expect(deref(envelope.properties.type)).toEqual({ type: "string", const: e.type, description: expect.any(String) });
    expect(envelope.required).toEqual(expect.arrayContaining(["type", "result"]));
    expect(envelope.additionalProperties).toBe(false);
  });

  it.each(endpoints)("$n $operationId answers a page (result array + meta) exactly when list is $list", (e) => {
    const envelope = deref(successSchema(operation(e.method, e.path)));
    const result = deref(envelope.properties.result);
    expect(result.type).toBe(e.list ? "array" : "object");
    expect(envelope.required.includes("meta")).toBe(e.list);
    const meta = envelope.properties.meta === undefined ? undefined : deref(envelope.properties.meta);
    const fields = ["current_count", "current_page", "page_count", "total_count"];
    expect(meta && { properties: Object.keys(meta.properties).sort(), required: [...meta.required].sort() }).toEqual(
      e.list ? { properties: fields, required: fields } : undefined,
    );
  });

  it.each(endpoints)("$n $operationId has a summary, a description, one defined tag and code samples", (e) => {
    const op = operation(e.method, e.path);
    expect(op.summary).toBeTruthy();
    expect(op.description.length).toBeGreaterThan(80);
    expect(op.tags).toHaveLength(1);
    expect(doc.tags.map((t: { name: string }) => t.name)).toContain(op.tags[0]);
    // One TypeScript sample, and a curl sample per named request example (at least one).
    const langs: string[] = op["x-codeSamples"].map((s: { lang: string }) => s.lang);
    expect(langs.filter((l) => l === "TypeScript")).toHaveLength(1);
    expect(langs.filter((l) => l !== "TypeScript").length).toBeGreaterThan(0);
    expect(new Set(langs)).toEqual(new Set(["TypeScript", "curl"]));
  });

  it("groups the operations into the seven areas of the source", () => {
    expect(new Set(operations().map((o) => o.op.tags[0])).size).toBe(7);
    expect(doc.tags).toHaveLength(7);
  });
});
