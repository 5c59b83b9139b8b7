// Every limit and closed value set of the operations (docs/decisions.md, Limits), checked
// by validating values at and just past each bound against the document's own schemas.
import { describe, expect, it } from "vitest";
import { bodySchema, check, deref, operation, parameter, parameters, property, propertyDeclarations, successSchema } from "./document.js";

const reports = operation("GET", "/reports/encryption");
const notifications = bodySchema(operation("POST", "/notifications"));
const smsUpdate = operation("PUT", "/sms/providers/{id}");
const emailSave = operation("POST", "/custom/emails");

const accepts = (schema: unknown, value: unknown) => expect(check(schema, value).valid, JSON.stringify(value)).toBe(true);
const refuses = (schema: unknown, value: unknown) => expect(check(schema, value).valid, JSON.stringify(value)).toBe(false);

// One valid body per notification type; each test changes one thing.
const base = { title: "Scheduled maintenance", content: "Sign-in pauses at 09:00 UTC.", receivers: ["usr_7d2e9a4c1b6f"] };
const choices = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `Option ${i + 1}` }));
const bodies = {
  SIMPLE: { ...base, type: "SIMPLE" },
  SURVEY: { ...base, type: "SURVEY", close_text: "Not now", submit_text: "Send answer" },
  RADIO: { ...base, type: "RADIO", radio: choices(2) },
  CHECKBOX: { ...base, type: "CHECKBOX", checkbox: choices(2) },
};

describe("paging (docs/decisions.md, Paging)", () => {
  const paged = [operation("GET", "/users/{id}/activity"), reports, operation("GET", "/webhooks/{id}/history"), operation("GET", "/webhooks")];

  it.each(paged.map((op) => [op.operationId, op]))("%s takes limit 10..100 (default 10) and page >= 1 (default 1)", (_, op) => {
    const limit = parameter(op, "limit");
    expect(limit).toMatchObject({ in: "query", required: false });
    expect(limit.schema.type).toBe("integer");
    expect(limit.schema.default).toBe(10);
    accepts(limit.schema, 10);
    accepts(limit.schema, 100);
    refuses(limit.schema, 9);
    refuses(limit.schema, 101);
    refuses(limit.schema, 10.5);

    const page = parameter(op, "page");
    expect(page).toMatchObject({ in: "query", required: false });
    expect(page.schema.type).toBe("integer");
    expect(page.schema.default).toBe(1);
    accepts(page.schema, 1);
    accepts(page.schema, 5000);
    refuses(page.schema, 0);
    refuses(page.schema, -1);
  });

  it("is not offered where the source answers one record", () => {
    for (const [method, path] of [
      ["GET", "/widgets/{id}"],
      ["GET", "/webhooks/{id}"],
      ["PUT", "/sms/providers/{id}"],
    ] as const) {
      expect(parameters(operation(method, path)).map((p) => p.name)).not.toContain("limit");
    }
  });
});

describe("GET /reports/encryption filters", () => {
  it("has exactly the source's query parameters, all optional", () => {
    const names = parameters(reports)
      .map((p) => p.name)
      .sort();
    expect(names).toEqual(
      ["account", "country", "device_type", "device_version", "email", "end_date", "group", "ip", "limit", "page", "region", "start_date", "status"].sort(),
    );
    for (const p of parameters(reports)) expect(p).toMatchObject({ in: "query", required: false });
  });

  it("takes device_type ANDROID or IOS only", () => {
    const schema = deref(parameter(reports, "device_type").schema);
    expect(schema.enum).toEqual(["ANDROID", "IOS"]);
    refuses(schema, "WINDOWS");
  });

  it.each(["start_date", "end_date"])("takes %s in Unix seconds and refuses a millisecond value", (name) => {
    const p = parameter(reports, name);
    accepts(p.schema, 1767225600); // 2026-01-01T00:00:00Z in seconds
    refuses(p.schema, 1767225600000); // the same instant in milliseconds
    refuses(p.schema, -1);
    refuses(p.schema, 1767225600.5);
    // The refusal says why: the unit is written where integrators read.
    expect(`${p.description} ${deref(p.schema).description}`).toMatch(/seconds/i);
    expect(deref(p.schema).description).toMatch(/millisecond/i);
  });

  it("takes ip as IPv4 or IPv6", () => {
    const { schema } = parameter(reports, "ip");
    accepts(schema, "203.0.113.24");
    accepts(schema, "2001:db8::7");
    refuses(schema, "203.0.113.256");
    refuses(schema, "not-an-ip");
  });

  it("takes email as an e-mail address", () => {
    const { schema } = parameter(reports, "email");
    accepts(schema, "maria.lopez@acme-shop.example");
    refuses(schema, "maria.lopez");
  });
});

describe("createNotification limits", () => {
  it.each(Object.entries(bodies))("accepts the base %s body", (_, body) => accepts(notifications, body));

  it("bounds title to 50 characters", () => {
    accepts(notifications, { ...bodies.SIMPLE, title: "t".repeat(50) });
    refuses(notifications, { ...bodies.SIMPLE, title: "t".repeat(51) });
  });

  it("bounds content to 250 characters", () => {
    accepts(notifications, { ...bodies.SIMPLE, content: "c".repeat(250) });
    refuses(notifications, { ...bodies.SIMPLE, content: "c".repeat(251) });
  });

  it.each(["close_text", "submit_text"])("bounds %s to 15 characters", (field) => {
    accepts(notifications, { ...bodies.SURVEY, [field]: "b".repeat(15) });
    refuses(notifications, { ...bodies.SURVEY, [field]: "b".repeat(16) });
  });

  it.each([
    ["RADIO", "radio"],
    ["CHECKBOX", "checkbox"],
  ] as const)("takes 2 to 10 items in %s's %s", (type, field) => {
    accepts(notifications, { ...bodies[type], [field]: choices(2) });
    accepts(notifications, { ...bodies[type], [field]: choices(10) });
    refuses(notifications, { ...bodies[type], [field]: choices(1) });
    refuses(notifications, { ...bodies[type], [field]: choices(11) });
    const { [field]: _, ...without } = bodies[type] as Record<string, unknown>;
    refuses(notifications, without); // required for its type
  });

  it("defaults level to 0 on every variant", () => {
    const declarations = propertyDeclarations(notifications, "level").map(deref);
    expect(declarations.length).toBeGreaterThan(0);
    for (const level of declarations) {
      expect(level.type).toBe("integer");
      expect(level.default).toBe(0);
    }
    refuses(notifications, { ...bodies.SIMPLE, level: -1 });
    refuses(notifications, { ...bodies.SIMPLE, level: 1.5 });
  });

  it("takes the notification type SIMPLE, SURVEY, RADIO or CHECKBOX only", () => {
    refuses(notifications, { ...bodies.SIMPLE, type: "POPUP" });
    // Each variant's `type` is a one-value enum (openapi/components/schemas/README.md).
    const values = propertyDeclarations(notifications, "type").flatMap((t) => deref(t).enum);
    expect(values.sort()).toEqual(["CHECKBOX", "RADIO", "SIMPLE", "SURVEY"]);
    const answered = deref(successSchema(operation("POST", "/notifications"))).properties.result;
    expect(property(answered, "type").enum).toEqual(["SIMPLE", "SURVEY", "RADIO", "CHECKBOX"]);
  });

  it("takes send_at as Unix seconds or `now`", () => {
    accepts(notifications, { ...bodies.SIMPLE, send_at: "now" });
    accepts(notifications, { ...bodies.SIMPLE, send_at: 1894698000 });
    refuses(notifications, { ...bodies.SIMPLE, send_at: 1894698000000 });
    refuses(notifications, { ...bodies.SIMPLE, send_at: "tomorrow" });
  });
});

describe("closed value sets (docs/decisions.md)", () => {
  it("log_messages is FULL, HASH or DISABLED in the update and in the provider", () => {
    const body = bodySchema(smsUpdate);
    expect(property(body, "log_messages").enum).toEqual(["FULL", "HASH", "DISABLED"]);
    const provider = deref(successSchema(smsUpdate)).properties.result;
    expect(property(provider, "log_messages").enum).toEqual(["FULL", "HASH", "DISABLED"]);
    refuses(body, { log_messages: "NONE" });
  });

  it("sort is UP or DOWN in the update and an integer position in the provider", () => {
    const body = bodySchema(smsUpdate);
    expect(property(body, "sort").enum).toEqual(["UP", "DOWN"]);
    accepts(body, { sort: "UP" });
    refuses(body, { sort: 1 });
    const provider = deref(successSchema(smsUpdate)).properties.result;
    expect(property(provider, "sort").type).toBe("integer");
  });

  it("the e-mail provider type is SENDGRID or SES, and the body variants are exactly those", () => {
    const kinds = deref(property(deref(successSchema(emailSave)).properties.result, "type"));
    expect(kinds.enum).toEqual(["SENDGRID", "SES"]);
    // The kinds are defined once (EmailProviderType); each request variant's one-value enum is one of them.
    const variantValues = propertyDeclarations(bodySchema(emailSave), "type").flatMap((t) => deref(t).enum);
    expect(variantValues.sort()).toEqual([...kinds.enum].sort());
    expect(deref(bodySchema(emailSave)).discriminator.propertyName).toBe("type");
    expect(Object.keys(deref(bodySchema(emailSave)).discriminator.mapping).sort()).toEqual([...kinds.enum].sort());
  });

  it("device type is ANDROID or IOS in the report too", () => {
    const report = deref(deref(successSchema(reports)).properties.result.items);
    expect(deref(property(report, "device").properties.type).enum).toEqual(["ANDROID", "IOS"]);
  });

  it("leaves the sets the source only samples open (no enum), with the seen value as an example", () => {
    const record = (op: unknown) => {
      const result = deref(deref(successSchema(op)).properties.result);
      return result.type === "array" ? result.items : result;
    };
    // Each set with a value the source shows of it.
    const open: [unknown, string, string][] = [
      [record(operation("GET", "/widgets/{id}")), "type", "REGISTER"],
      [record(operation("GET", "/widgets/{id}")), "environment", "LIVE"],
      [record(operation("GET", "/users/{id}/activity")), "type", "AUTHENTICATION"],
      [record(operation("GET", "/users/{id}/activity")), "method", "EMAIL"],
      [record(operation("GET", "/users/{id}/activity")), "status", "APPROVED"],
      [record(reports), "type", "ENCRYPTION_KEY"],
      [record(reports), "method", "EMAIL"],
      [record(reports), "status", "NEW"],
      [record(smsUpdate), "type", "TWILIO"],
    ];
    for (const [schema, name, seen] of open) {
      const declared = property(schema, name);
      // The seen values are annotations beside the `$ref` to OpenValue, where the property is declared.
      const [declaration] = propertyDeclarations(schema, name);
      expect(JSON.stringify(declared), name).not.toContain('"enum"');
      expect(declaration.examples, name).toContain(seen);
      accepts(declared, seen);
      accepts(declared, "SOMETHING_NEW");
      refuses(declared, "X".repeat(65)); // open, but bounded
    }
    const phoneTypes = property(record(smsUpdate), "phone_types");
    expect(JSON.stringify(deref(phoneTypes.items))).not.toContain('"enum"');
    accepts(phoneTypes, ["MOBILE", "LANDLINE"]);
  });
});
