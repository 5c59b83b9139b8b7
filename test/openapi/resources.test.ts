// Every field of each resource (and the history record of docs/decisions.md) on the schema
// the operation answers, with its type; request bodies refuse fields they do not know.
import { describe, expect, it } from "vitest";
import { bodySchema, check, deref, doc, operation, property, successSchema, typeInfo, type Node } from "./document.js";

// A field's type as the source writes it: a JSON type, one of the string kinds below, an
// array of one, or a nested object given by its own fields.
type Field = "string" | "integer" | "boolean" | "timestamp" | "email" | "ip" | [Field] | Fields;
interface Fields {
  [name: string]: Field;
}

// The fields of each resource, written out.
const domain: Fields = {
  id: "string",
  protocol: "string",
  hostname: "string",
  port: "integer",
  is_sandbox: "boolean",
  organization_id: "string",
  href: "string",
  is_verified: "boolean",
  verify_key: "string",
};
const widget: Fields = {
  id: "string",
  lang: "string",
  name: "string",
  type: "string",
  is_active: "boolean",
  has_watermark: "boolean",
  environment: "string",
  organization_id: "string",
  application_id: "string",
  created_at: "timestamp",
  color: { primary: "string", secondary: "string", link: "string", error: "string" },
  path: "string",
  domain,
};
const activity: Fields = {
  id: "string",
  type: "string",
  method: "string",
  status: "string",
  organization_id: "string",
  application_id: "string",
  account_id: "string",
  profile_id: "string",
  ip_source: "ip",
  ip_device: "ip",
  created_at: "timestamp",
  authentication: { encryption_key: "boolean", session: { sent: "boolean" } },
};
const report: Fields = {
  id: "string",
  type: "string",
  method: "string",
  status: "string",
  organization_id: "string",
  application_id: "string",
  account_id: "string",
  profile_id: "string",
  ip_source: "ip",
  ip_device: "ip",
  created_at: "timestamp",
  country: { code: "string", name: "string" },
  region: { code: "string", name: "string" },
  device: { id: "string", type: "string", version: "string" },
  user: {
    id: "integer",
    email: "email",
    account: { id: "integer", first_name: "string", last_name: "string", image: "string", is_active: "boolean" },
  },
};
const smsProvider: Fields = {
  id: "string",
  type: "string",
  name: "string",
  log_messages: "string",
  countries: ["string"],
  patterns: ["string"],
  phone_types: ["string"],
  is_default: "boolean",
  is_verified: "boolean",
  is_active: "boolean",
  sort: "integer",
  created_at: "timestamp",
};
const emailTransport: Fields = {
  id: "string",
  type: "string",
  is_verified: "boolean",
  auth: "string",
  email_from: "email",
  email_reply: "email",
  email_admin: "email",
  from_name: "string",
  domain: "string",
  send_count: "integer",
  fail_count: "integer",
  organization_id: "string",
  application_id: "string",
  created_at: "timestamp",
  region: "string",
};
const notification: Fields = {
  id: "string",
  type: "string",
  status: "string",
  title: "string",
  content: "string",
  level: "integer",
  open_count: "integer",
  send_at: "timestamp",
  name: "string",
  receivers: ["string"],
};
const webhook: Fields = {
  id: "string",
  event: "string",
  url: "string",
  is_active: "boolean",
  organization_id: "string",
  application_id: "string",
  created_at: "timestamp",
};
// docs/decisions.md, Webhook history records: the fields the source leaves open.
const historyRecord: Fields = {
  id: "string",
  webhook_id: "string",
  event: "string",
  url: "string",
  status: "string",
  response_code: "integer",
  duration_ms: "integer",
  attempt: "integer",
  error: "string",
  created_at: "timestamp",
};

const resources: [string, string, string, Fields][] = [
  ["2.1 Widget", "GET", "/widgets/{id}", widget],
  ["2.2 Activity record", "GET", "/users/{id}/activity", activity],
  ["2.3 Encryption report record", "GET", "/reports/encryption", report],
  ["2.4 SMS provider", "PUT", "/sms/providers/{id}", smsProvider],
  ["2.5 E-mail transport settings", "POST", "/custom/emails", emailTransport],
  ["2.6 In-app notification", "POST", "/notifications", notification],
  ["2.7 Webhook", "GET", "/webhooks/{id}", webhook],
  ["2.7 Webhook (list record of 4.9)", "GET", "/webhooks", webhook],
  ["history record (docs/decisions.md)", "GET", "/webhooks/{id}/history", historyRecord],
];

/** The record schema an operation answers: `result`, or its items for a list. */
function record(method: string, path: string): Node {
  const result = deref(deref(successSchema(operation(method, path))).properties.result);
  return result.type === "array" ? deref(result.items) : result;
}

/** Compares a schema with the field list; returns one line per mismatch. */
function mismatches(schema: Node, fields: Fields, at: string): string[] {
  const s = deref(schema);
  const problems: string[] = [];
  const declared = Object.keys(s.properties ?? {});
  for (const extra of declared.filter((name) => !(name in fields))) problems.push(`${at}${extra}: not in the source`);
  if (s.additionalProperties !== false) problems.push(`${at}: answers undeclared fields`);
  for (const [name, field] of Object.entries(fields)) {
    const where = `${at}${name}`;
    if (!declared.includes(name)) {
      problems.push(`${where}: missing`);
      continue;
    }
    // Every field of a record is always answered.
    if (!s.required?.includes(name)) problems.push(`${where}: not required`);
    problems.push(...fieldMismatches(s.properties[name], field, where));
  }
  return problems;
}

function fieldMismatches(schema: Node, field: Field, where: string): string[] {
  const { types, formats } = typeInfo(schema);
  const nonNull = [...types].filter((t) => t !== "null");
  const is = (type: string, ...anyFormat: string[]) =>
    nonNull.length === 1 && nonNull[0] === type && (anyFormat.length === 0 || anyFormat.some((f) => formats.has(f)))
      ? []
      : [`${where}: is ${[...types].join("|")} (${[...formats].join(",")}), expected ${JSON.stringify(field)}`];
  if (Array.isArray(field)) {
    const problems = is("array");
    return problems.length ? problems : fieldMismatches(deref(schema).items, field[0], `${where}[]`);
  }
  if (typeof field === "object") {
    const problems = is("object");
    return problems.length ? problems : mismatches(schema, field, `${where}.`);
  }
  switch (field) {
    case "timestamp":
      return is("string", "date-time");
    case "email":
      return is("string", "email");
    case "ip":
      return formats.has("ipv4") && formats.has("ipv6") ? is("string") : [`${where}: not an IPv4/IPv6 address`];
    default:
      return is(field);
  }
}

describe("resources", () => {
  it.each(resources)("%s has every field with its type", (_, method, path, fields) => {
    expect(mismatches(record(method, path), fields, "")).toEqual([]);
  });

  it("answers timestamps as ISO 8601 UTC with milliseconds", () => {
    const createdAt = property(record("GET", "/widgets/{id}"), "created_at");
    expect(check(createdAt, "2026-01-31T09:15:00.000Z").valid).toBe(true);
    expect(check(createdAt, "2026-01-31T09:15:00Z").valid).toBe(false);
    expect(check(createdAt, "2026-01-31T10:15:00.000+01:00").valid).toBe(false);
  });

  it("history record: status SUCCESS or FAILED, response_code and error nullable, attempt from 1", () => {
    const history = record("GET", "/webhooks/{id}/history");
    expect(property(history, "status").enum).toEqual(["SUCCESS", "FAILED"]);
    expect(typeInfo(property(history, "response_code")).types).toEqual(new Set(["integer", "null"]));
    expect(typeInfo(property(history, "error")).types).toEqual(new Set(["string", "null"]));
    expect(check(property(history, "attempt"), 0).valid).toBe(false);
    expect(check(property(history, "attempt"), 1).valid).toBe(true);
  });

  it("the webhook list record is the webhook of 4.7 (one schema)", () => {
    const list = deref(deref(successSchema(operation("GET", "/webhooks"))).properties.result).items;
    const one = deref(successSchema(operation("GET", "/webhooks/{id}"))).properties.result;
    expect(list.$ref).toBeDefined();
    expect(list.$ref).toBe(one.$ref);
  });

  it("the e-mail transport answers the provider type from the one definition of the kinds", () => {
    const typeRef = deref(record("POST", "/custom/emails")).properties.type.$ref;
    expect(typeRef).toBe("#/components/schemas/EmailProviderType");
    expect(doc.components.schemas.EmailProviderType.enum).toEqual(["SENDGRID", "SES"]);
  });
});

describe("request bodies refuse unknown fields", () => {
  const valid: [string, string, string, Record<string, unknown>][] = [
    ["PUT /sms/providers/{id}", "PUT", "/sms/providers/{id}", { name: "Backup gateway" }],
    ["PUT /sms/providers/{id} (empty)", "PUT", "/sms/providers/{id}", {}],
    [
      "POST /custom/emails (SENDGRID)",
      "POST",
      "/custom/emails",
      { type: "SENDGRID", email_from: "a@acme-shop.example", email_admin: "b@acme-shop.example", auth: { api_key: "SG.x" } },
    ],
    [
      "POST /custom/emails (SES)",
      "POST",
      "/custom/emails",
      {
        type: "SES",
        email_from: "a@acme-shop.example",
        email_admin: "b@acme-shop.example",
        auth: { region: "eu-west-1", accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "s" },
      },
    ],
    ["POST /notifications (SIMPLE)", "POST", "/notifications", { type: "SIMPLE", title: "T", content: "C", broadcast: true }],
    ["POST /notifications (SURVEY)", "POST", "/notifications", { type: "SURVEY", title: "T", content: "C", broadcast: true, close_text: "No" }],
    ["POST /notifications (RADIO)", "POST", "/notifications", { type: "RADIO", title: "T", content: "C", broadcast: true, radio: [{ text: "a" }, { text: "b" }] }],
    ["POST /notifications (CHECKBOX)", "POST", "/notifications", { type: "CHECKBOX", title: "T", content: "C", groups: [7], checkbox: [{ text: "a" }, { text: "b" }] }],
  ];

  it.each(valid)("%s: valid as given, refused with an extra field", (_, method, path, body) => {
    const schema = bodySchema(operation(method, path));
    expect(check(schema, body)).toEqual({ valid: true, errors: "" });
    expect(check(schema, { ...body, unknown_field: true }).valid).toBe(false);
  });

  it("refuses unknown fields inside nested objects too", () => {
    const email = bodySchema(operation("POST", "/custom/emails"));
    const sendgrid = valid[2]![3];
    expect(check(email, { ...sendgrid, auth: { api_key: "SG.x", extra: 1 } }).valid).toBe(false);
    const notifications = bodySchema(operation("POST", "/notifications"));
    const radio = valid[6]![3];
    expect(check(notifications, { ...radio, radio: [{ text: "a", color: "red" }, { text: "b" }] }).valid).toBe(false);
  });

  it("every operation with a body requires it as JSON", () => {
    for (const [method, path] of [
      ["PUT", "/sms/providers/{id}"],
      ["POST", "/custom/emails"],
      ["POST", "/notifications"],
    ]) {
      const body = deref(operation(method!, path!).requestBody);
      expect(body.required).toBe(true);
      expect(Object.keys(body.content)).toEqual(["application/json"]);
    }
  });
});
