// The rules the schemas cannot state (`x-cross-field-rules` on an operation): each names
// fields the operation has, a status it documents with a problem code, and, where it gives
// one, a 400 example of that status whose errors name the rule's fields. The example is what
// the reference server answers to a request breaking the rule, word for word, and the mock
// answers the same where it can (the date range; the others depend on stored state or time).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { startServer, type RunningServer } from "../../server/reference-server.js";
import { appA } from "../support/demo.js";
import { deref, namedExample, operation, type Node } from "../support/document.js";
import { credentialsFor, operationIds } from "../support/requests.js";
import type { OperationId } from "../../generated/operations.js";
import { bodySchema, propertyDeclarations } from "./document.js";

interface Rule {
  id: string;
  description: string;
  fields: { in: "query" | "path" | "body"; name?: string; pointer?: string }[];
  "depends-on": string;
  status: number;
  code: string;
  example?: string;
}

const rules = operationIds.flatMap((operationId) => ((operation(operationId)["x-cross-field-rules"] ?? []) as Rule[]).map((rule) => [operationId, rule] as const));

/** A request breaking each rule that has an example (application A's demo data, as seeded). */
const breaking: Record<string, { method: string; path: string; body?: unknown }> = {
  "start_date-not-after-end_date": { method: "GET", path: "/reports/encryption?start_date=1767225600&end_date=1767139200" },
  // A's stored transport is SENDGRID.
  "auth-on-first-save-and-type-change": {
    method: "POST",
    path: "/custom/emails",
    body: { type: "SES", email_from: "no-reply@acme-shop.example", email_admin: "admin@acme-shop.example" },
  },
  "receivers-have-logged-in": { method: "POST", path: "/notifications", body: { type: "SIMPLE", title: "T", content: "C", receivers: ["usr_no_such_user"] } },
};

function send(base: string, operationId: OperationId, request: (typeof breaking)[string]): Promise<Response> {
  return fetch(`${base}${request.path}`, {
    method: request.method,
    headers: { ...credentialsFor(operationId, appA), ...(request.body === undefined ? {} : { "content-type": "application/json" }) },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
}

let server: RunningServer;
let mock: RunningMock;
beforeAll(async () => {
  [server, mock] = await Promise.all([startServer({ rateLimit: false, idleGraceMs: 0 }), startMock()]);
});
afterAll(async () => {
  await Promise.all([server?.close(), mock?.close()]);
});

describe("x-cross-field-rules", () => {
  it("states the date range, the e-mail auth rule and the notification rules", () => {
    expect(rules.map(([operationId, rule]) => `${operationId} ${rule.id}`)).toEqual(
      expect.arrayContaining([
        "findEncryptionReports start_date-not-after-end_date",
        "saveEmailTransport auth-on-first-save-and-type-change",
        "createNotification receivers-have-logged-in",
      ]),
    );
  });

  describe.each(rules.map(([operationId, rule]) => [`${operationId} ${rule.id}`, operationId, rule] as const))("%s", (_, operationId, rule) => {
    const op = operation(operationId);

    it("names fields of the operation, a documented status and its example", () => {
      expect(rule.description.length).toBeGreaterThan(20);
      expect(rule["depends-on"]).toBeTruthy();
      const parameters = new Set((op.parameters ?? []).map((p: Node) => deref(p)).map((p: Node) => `${p.in}:${p.name}`));
      for (const field of rule.fields) {
        if (field.in === "body") expect(propertyDeclarations(bodySchema(op), field.pointer!.split("/")[1]!), field.pointer).not.toEqual([]);
        else expect([...parameters], field.name).toContain(`${field.in}:${field.name}`);
      }
      const response = deref(op.responses[String(rule.status)]);
      expect(response, `status ${rule.status}`).toBeDefined();
      if (rule.example === undefined) return;
      expect(Object.keys(response.content["application/problem+json"].examples)).toContain(rule.example);
      const example = namedExample(rule.example) as { code: string; errors: { name?: string; pointer?: string }[] };
      expect(example.code).toBe(rule.code);
      const named = rule.fields.map((field) => field.name ?? field.pointer);
      for (const error of example.errors) expect(named.some((field) => (error.name ?? error.pointer)!.startsWith(field!))).toBe(true);
    });

    it.skipIf(!(rule.id in breaking))("the reference server answers a request breaking it with the example", async () => {
      const response = await send(server.url, operationId, breaking[rule.id]!);
      expect(response.status).toBe(rule.status);
      expect(await response.json()).toEqual(namedExample(rule.example!));
    });
  });

  it("the mock refuses an inverted date range as the server does (the others need stored state)", async () => {
    const response = await send(mock.url, "findEncryptionReports", breaking["start_date-not-after-end_date"]!);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(namedExample("FindEncryptionReportsInvertedDatesProblem"));
  });
});
