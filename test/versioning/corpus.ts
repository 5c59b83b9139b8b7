// The labelled corpus: changes to this project's own bundle, each with the release it needs
// under docs/versioning.md (major: breaks a client written against the unchanged document;
// minor: an addition; patch: neither) and the rule that must name it: a rule of the `diff:`
// section of openapi/redocly.yaml or of scripts/diff/policy.ts. Every such rule is named by
// at least one entry, breaking ones first in each group. `prepare` (applied to both sides)
// sets up a starting point the document lacks.
import type { Impact } from "../../scripts/diff/index.js";
import { doc, type Node } from "../support/document.js";

export interface Labelled {
  name: string;
  impact: Impact;
  /** The rule that must be reported for it, when one judges it (plain additions and edits have none). */
  rule?: string;
  change: (doc: Node) => void;
  prepare?: (doc: Node) => void;
}

const schema = (doc: Node, name: string): Node => doc.components.schemas[name];
const param = (doc: Node, name: string): Node => doc.components.parameters[name];
const op = (doc: Node, path: string, method = "get"): Node => doc.paths[path][method];
const without = <T>(list: T[], item: T): T[] => list.filter((x) => x !== item);
/** NotificationCreate's parts: the targeting rule (its if/then/else) and the discriminated union of the variants beside it (anyOf [union]). */
const targeting = (doc: Node): Node => schema(doc, "NotificationCreate");
const notificationUnion = (doc: Node): Node => schema(doc, "NotificationCreate").anyOf[0];

export const corpus: Labelled[] = [
  // Operations and paths
  { name: "removed operation", impact: "major", rule: "operation-removed", change: (d) => delete d.paths["/webhooks/{id}/history"].get },
  { name: "removed path", impact: "major", rule: "path-removed", change: (d) => delete d.paths["/widgets/{id}"] },
  {
    name: "renamed path",
    impact: "major",
    rule: "path-removed",
    change: (d) => {
      d.paths["/webhooks/{id}/deliveries"] = d.paths["/webhooks/{id}/history"];
      delete d.paths["/webhooks/{id}/history"];
    },
  },
  {
    name: "new operation",
    impact: "minor",
    change: (d) => (d.paths["/webhooks/{id}"].delete = { ...structuredClone(op(d, "/webhooks/{id}")), operationId: "deleteWebhook" }),
  },
  { name: "operationId renamed", impact: "major", rule: "operation-id-changed", change: (d) => (op(d, "/widgets/{id}").operationId = "getWidget") },
  {
    name: "path parameter renamed (same place in the template)",
    impact: "patch",
    change: (d) => {
      d.paths["/widgets/{widgetId}"] = d.paths["/widgets/{id}"];
      delete d.paths["/widgets/{id}"];
      param(d, "WidgetId").name = "widgetId";
    },
  },
  // One spelling of the same schema for another (scripts/diff/canonical.ts): not a change.
  {
    name: "request property's $ref wrapped in a one-member allOf",
    impact: "patch",
    change: (d) => {
      const { $ref, ...rest } = schema(d, "SendgridSettings").properties.email_from;
      schema(d, "SendgridSettings").properties.email_from = { allOf: [{ $ref }], ...rest };
    },
  },
  {
    name: "response property's one-member allOf unwrapped to its $ref",
    impact: "patch",
    prepare: (d) => {
      const { $ref, ...rest } = schema(d, "Widget").properties.environment;
      schema(d, "Widget").properties.environment = { allOf: [{ $ref }], ...rest };
    },
    change: (d) => {
      const { allOf, ...rest } = schema(d, "Widget").properties.environment;
      schema(d, "Widget").properties.environment = { ...allOf[0], ...rest };
    },
  },
  {
    name: "one-member allOf of a request property pointed at another schema",
    impact: "major",
    prepare: (d) => {
      const { $ref, ...rest } = schema(d, "SendgridSettings").properties.email_from;
      schema(d, "SendgridSettings").properties.email_from = { allOf: [{ $ref }], ...rest };
    },
    change: (d) => (schema(d, "SendgridSettings").properties.email_from.allOf = [{ $ref: "#/components/schemas/OpenValue" }]),
  },
  {
    name: "description and example edits only",
    impact: "patch",
    change: (d) => {
      op(d, "/webhooks").description = "Another text.";
      schema(d, "Webhook").properties.url.examples = ["https://example.org/hook"];
      param(d, "Limit").example = 50;
    },
  },
  {
    name: "inline schema moved into a component",
    impact: "patch",
    change: (d) => {
      d.components.schemas.WebhookUrl = schema(d, "Webhook").properties.url;
      schema(d, "Webhook").properties.url = { $ref: "#/components/schemas/WebhookUrl" };
    },
  },
  {
    name: "deprecated operation",
    impact: "minor",
    rule: "deprecated",
    change: (d) => Object.assign(op(d, "/widgets/{id}"), { deprecated: true, "x-sunset": "2027-06-30" }),
  },

  // Parameters
  {
    name: "new required query parameter",
    impact: "major",
    rule: "parameter-became-required",
    change: (d) => op(d, "/webhooks").parameters.push({ name: "event", in: "query", required: true, schema: { type: "string" } }),
  },
  {
    name: "new optional query parameter",
    impact: "minor",
    change: (d) => op(d, "/webhooks").parameters.push({ name: "event", in: "query", required: false, schema: { type: "string" } }),
  },
  { name: "optional parameter made required", impact: "major", rule: "parameter-became-required", change: (d) => (param(d, "ReportStatus").required = true) },
  { name: "required parameter made optional", impact: "patch", prepare: (d) => (param(d, "Limit").required = true), change: (d) => (param(d, "Limit").required = false) },
  {
    name: "parameter removed",
    impact: "major",
    rule: "parameter-removed",
    change: (d) =>
      (op(d, "/reports/encryption").parameters = op(d, "/reports/encryption").parameters.filter((p: Node) => p.$ref !== "#/components/parameters/ReportStatus")),
  },
  {
    name: "parameter serialization changed (style)",
    impact: "major",
    rule: "parameter-serialization-changed",
    change: (d) => (param(d, "ReportStatus").explode = false),
  },
  { name: "parameter type change", impact: "major", rule: "schema-type-changed", change: (d) => (param(d, "Limit").schema.type = "string") },
  { name: "parameter type widened", impact: "patch", change: (d) => (param(d, "Limit").schema.type = ["integer", "null"]) },
  { name: "tighter maximum of a request parameter", impact: "major", rule: "schema-constraint-changed", change: (d) => (param(d, "Limit").schema.maximum = 50) },
  { name: "looser maximum of a request parameter", impact: "patch", change: (d) => (param(d, "Limit").schema.maximum = 500) },
  { name: "looser minimum of a request parameter", impact: "patch", change: (d) => (param(d, "Limit").schema.minimum = 1) },
  { name: "default value of a parameter changed", impact: "major", rule: "request-default-changed", change: (d) => (param(d, "Limit").schema.default = 20) },
  {
    name: "deprecated parameter",
    impact: "minor",
    rule: "deprecated",
    change: (d) => Object.assign(param(d, "ReportStatus"), { deprecated: true, "x-sunset": "2027-06-30" }),
  },

  // Request bodies
  {
    name: "tighter maxLength in a request",
    impact: "major",
    rule: "schema-constraint-changed",
    change: (d) => (schema(d, "SmsProviderUpdate").properties.name.maxLength = 50),
  },
  { name: "looser maxLength in a request", impact: "patch", change: (d) => (schema(d, "SmsProviderUpdate").properties.name.maxLength = 200) },
  {
    name: "tighter minItems in a request (RADIO)",
    impact: "major",
    rule: "schema-constraint-changed",
    change: (d) => (schema(d, "RadioNotificationCreate").properties.radio.minItems = 3),
  },
  {
    name: "changed pattern in a request",
    impact: "major",
    rule: "schema-constraint-changed",
    change: (d) => (schema(d, "SesSettings").properties.auth.properties.region.pattern = "^[a-z]{2}-[a-z]+-\\d$"),
  },
  {
    name: "new pattern in a request",
    impact: "major",
    rule: "schema-constraint-changed",
    change: (d) => (schema(d, "SmsProviderUpdate").properties.name.pattern = "^[A-Za-z ]+$"),
  },
  { name: "pattern removed in a request", impact: "patch", change: (d) => delete schema(d, "SesSettings").properties.auth.properties.region.pattern },
  { name: "format changed in a request", impact: "major", rule: "schema-constraint-changed", change: (d) => (schema(d, "EmailAddress").format = "idn-email") },
  {
    name: "new required request body field",
    impact: "major",
    rule: "required-properties-added",
    change: (d) => {
      schema(d, "SmsProviderUpdate").properties.channel = { type: "string" };
      schema(d, "SmsProviderUpdate").required = ["channel"];
    },
  },
  { name: "new optional request body field", impact: "minor", change: (d) => (schema(d, "SmsProviderUpdate").properties.channel = { type: "string" }) },
  {
    name: "optional request field made required",
    impact: "major",
    rule: "required-properties-added",
    change: (d) => (schema(d, "SmsProviderUpdate").required = ["name"]),
  },
  { name: "request field removed (closed schema)", impact: "major", rule: "property-removed", change: (d) => delete schema(d, "SmsProviderUpdate").properties.is_active },
  {
    name: "new enum value in a request",
    impact: "minor",
    rule: "request-enum-values-added",
    change: (d) => schema(d, "SmsProviderUpdate").properties.sort.enum.push("CORPUS_ADDED"),
  },
  {
    name: "removed enum value in a request",
    impact: "major",
    rule: "enum-values-removed",
    change: (d) => (schema(d, "SmsProviderUpdate").properties.sort.enum = ["UP"]),
  },
  {
    name: "const of a request variant changed (SIMPLE → PLAIN)",
    impact: "major",
    // The diff spells a `const` as the one-value `enum` it is (scripts/diff/canonical.ts).
    rule: "enum-values-removed",
    change: (d) => (schema(d, "SimpleNotificationCreate").properties.type.enum = ["PLAIN"]),
  },
  {
    name: "default value of a request field changed",
    impact: "major",
    rule: "request-default-changed",
    change: (d) => (schema(d, "NotificationLevel").default = 50),
  },
  {
    name: "discriminator mapping change",
    impact: "major",
    rule: "enum-values-removed",
    change: (d) => (notificationUnion(d).discriminator.mapping.SURVEY = "#/components/schemas/RadioNotificationCreate"),
  },
  {
    name: "new oneOf variant in a request",
    impact: "minor",
    change: (d) => {
      const banner = structuredClone(schema(d, "SimpleNotificationCreate"));
      banner.properties.type.enum = ["CORPUS_VARIANT"];
      d.components.schemas.BannerNotificationCreate = banner;
      notificationUnion(d).oneOf.push({ $ref: "#/components/schemas/BannerNotificationCreate" });
      notificationUnion(d).discriminator.mapping.CORPUS_VARIANT = "#/components/schemas/BannerNotificationCreate";
    },
  },
  {
    name: "oneOf variant removed from a request",
    impact: "major",
    rule: "schema-combinator-changed",
    change: (d) => {
      const union = notificationUnion(d);
      union.oneOf = union.oneOf.filter((b: Node) => !b.$ref.endsWith("/CheckboxNotificationCreate"));
      delete union.discriminator.mapping.CHECKBOX;
    },
  },
  {
    name: "additionalProperties: false added to a request variant",
    impact: "major",
    rule: "schema-constraint-changed",
    prepare: (d) => delete schema(d, "SurveyNotificationCreate").additionalProperties,
    change: (d) => (schema(d, "SurveyNotificationCreate").additionalProperties = false),
  },
  {
    name: "additionalProperties: false removed from a request variant",
    impact: "patch",
    change: (d) => delete schema(d, "SimpleNotificationCreate").additionalProperties,
  },
  // The same closed variant in the spelling before 2.0.1 (scripts/diff/canonical.ts): not a change.
  {
    name: "closed request variant respelled: allOf + unevaluatedProperties to properties by $ref + additionalProperties",
    impact: "patch",
    prepare: (d) => {
      const { type, ...shared } = schema(d, "SimpleNotificationCreate").properties;
      d.components.schemas.NotificationFields = { type: "object", required: ["title", "content"], properties: shared };
      d.components.schemas.SimpleNotificationCreate = {
        title: "SIMPLE notification",
        type: "object",
        required: ["type"],
        allOf: [{ required: ["type"], properties: { type } }, { $ref: "#/components/schemas/NotificationFields" }],
        unevaluatedProperties: false,
      };
    },
    change: (d) => (d.components.schemas.SimpleNotificationCreate = structuredClone(doc.components.schemas.SimpleNotificationCreate)),
  },
  {
    name: "if condition changed (broadcast)",
    impact: "major",
    rule: "enum-values-removed",
    change: (d) => (targeting(d).if.properties.broadcast.const = false),
  },
  {
    name: "then branch tightened (receivers)",
    impact: "major",
    rule: "schema-constraint-changed",
    change: (d) => (targeting(d).else.anyOf[0].properties.receivers.minItems = 2),
  },
  {
    name: "if/then/else removed from a request",
    impact: "patch",
    change: (d) => {
      for (const key of ["if", "then", "else"]) delete targeting(d)[key];
    },
  },
  // The same unions in the spelling of 3.0.0 (scripts/diff/canonical.ts): not a change.
  {
    name: "targeting rule moved from a shared schema each request variant applies to one allOf member beside the union",
    impact: "patch",
    prepare: (d) => {
      const { if: condition, then, else: otherwise } = targeting(d);
      const rule = { if: condition, then, else: otherwise };
      const union = notificationUnion(d);
      const { type: _, ...shared } = schema(d, "SimpleNotificationCreate").properties;
      d.components.schemas.NotificationFields = { type: "object", required: ["title", "content"], properties: shared, ...rule };
      for (const branch of union.oneOf) {
        const variant = schema(d, branch.$ref.split("/").pop());
        variant.allOf = [{ $ref: "#/components/schemas/NotificationFields" }];
        variant.required = variant.required.filter((name: string) => name !== "title" && name !== "content");
      }
      d.components.schemas.NotificationCreate = { description: schema(d, "NotificationCreate").description, ...union };
    },
    change: (d) => {
      delete d.components.schemas.NotificationFields;
      for (const name of ["NotificationCreate", "SimpleNotificationCreate", "SurveyNotificationCreate", "RadioNotificationCreate", "CheckboxNotificationCreate"]) {
        d.components.schemas[name] = structuredClone(doc.components.schemas[name]);
      }
    },
  },
  {
    name: "request variant's `type` respelled: `const` to a one-value `enum`",
    impact: "patch",
    prepare: (d) => {
      const { enum: values, ...rest } = schema(d, "SesSettings").properties.type;
      schema(d, "SesSettings").properties.type = { ...rest, const: values[0] };
    },
    change: (d) => (schema(d, "SesSettings").properties.type = structuredClone(doc.components.schemas.SesSettings.properties.type)),
  },
  {
    name: "`type` beside a request `const` of that type dropped",
    impact: "patch",
    prepare: (d) => (schema(d, "NotificationSendAt").oneOf[1] = { type: "string", const: "now" }),
    change: (d) => (schema(d, "NotificationSendAt").oneOf[1] = { const: "now" }),
  },
  {
    name: "`type` and bound beside a response anyOf, which every branch carries, dropped",
    impact: "patch",
    prepare: (d) => Object.assign(schema(d, "IpAddress"), { type: "string", maxLength: 45 }),
    change: (d) => {
      delete schema(d, "IpAddress").type;
      delete schema(d, "IpAddress").maxLength;
    },
  },
  {
    name: "bound beside a response anyOf, tighter than a branch's, removed",
    impact: "major",
    rule: "schema-constraint-changed",
    prepare: (d) => (schema(d, "IpAddress").maxLength = 40),
    change: (d) => delete schema(d, "IpAddress").maxLength,
  },
  { name: "request body removed", impact: "major", rule: "request-body-removed", change: (d) => delete op(d, "/sms/providers/{id}", "put").requestBody },
  {
    name: "optional request body made required",
    impact: "major",
    rule: "request-body-became-required",
    prepare: (d) => (op(d, "/sms/providers/{id}", "put").requestBody.required = false),
    change: (d) => (op(d, "/sms/providers/{id}", "put").requestBody.required = true),
  },
  { name: "request body made optional", impact: "patch", change: (d) => (op(d, "/sms/providers/{id}", "put").requestBody.required = false) },
  {
    name: "request media type removed",
    impact: "major",
    rule: "media-type-removed",
    change: (d) => {
      const content = op(d, "/sms/providers/{id}", "put").requestBody.content;
      content["application/merge-patch+json"] = content["application/json"];
      delete content["application/json"];
    },
  },

  // Responses
  {
    name: "removed response field",
    impact: "major",
    rule: "property-removed",
    change: (d) => {
      delete schema(d, "Webhook").properties.is_active;
      schema(d, "Webhook").required = without(schema(d, "Webhook").required, "is_active");
    },
  },
  {
    name: "response field made optional",
    impact: "major",
    rule: "required-properties-removed",
    change: (d) => (schema(d, "Webhook").required = without(schema(d, "Webhook").required, "url")),
  },
  {
    name: "new response field",
    impact: "minor",
    change: (d) => {
      schema(d, "Webhook").properties.description = { type: "string" };
      schema(d, "Webhook").required.push("description");
    },
  },
  {
    name: "optional response field made required",
    impact: "patch",
    prepare: (d) => (schema(d, "Webhook").required = without(schema(d, "Webhook").required, "url")),
    change: (d) => schema(d, "Webhook").required.push("url"),
  },
  { name: "new enum value in a response", impact: "major", rule: "enum-values-added", change: (d) => schema(d, "NotificationType").enum.push("CORPUS_ADDED") },
  { name: "removed enum value in a response", impact: "patch", change: (d) => (schema(d, "EmailProviderType").enum = ["SENDGRID"]) },
  {
    name: "const change of a response `type`",
    impact: "major",
    rule: "enum-values-added",
    change: (d) => (schema(d, "NotificationCreateResponse").properties.type.const = "api.notification.create"),
  },
  { name: "response field made nullable", impact: "major", rule: "schema-type-changed", change: (d) => (schema(d, "Webhook").properties.url.type = ["string", "null"]) },
  { name: "looser maxLength in a response", impact: "major", rule: "schema-constraint-changed", change: (d) => (schema(d, "Webhook").properties.url.maxLength = 4096) },
  { name: "tighter maxLength in a response", impact: "patch", change: (d) => (schema(d, "Webhook").properties.url.maxLength = 1024) },
  { name: "deprecated response field", impact: "minor", rule: "deprecated", change: (d) => (schema(d, "Webhook").properties.is_active.deprecated = true) },
  { name: "new error status", impact: "minor", change: (d) => (op(d, "/webhooks/{id}").responses["409"] = { $ref: "#/components/responses/Conflict" }) },
  { name: "error status removed", impact: "major", rule: "response-removed", change: (d) => delete op(d, "/widgets/{id}").responses["404"] },
  {
    name: "success status changed (200 → 201)",
    impact: "major",
    rule: "response-removed",
    change: (d) => {
      const responses = op(d, "/notifications", "post").responses;
      responses["201"] = responses["200"];
      delete responses["200"];
    },
  },
  {
    name: "response header removed",
    impact: "major",
    rule: "response-header-removed",
    change: (d) => delete op(d, "/webhooks").responses["200"].headers["X-Request-Id"],
  },
  {
    name: "response media type removed",
    impact: "major",
    rule: "media-type-removed",
    change: (d) => {
      const content = op(d, "/webhooks").responses["200"].content;
      content["application/vnd.authsvc+json"] = content["application/json"];
      delete content["application/json"];
    },
  },

  // Security and servers
  {
    name: "changed security scheme (apiKey header name)",
    impact: "major",
    rule: "security-scheme-changed",
    change: (d) => (d.components.securitySchemes.apiKey.name = "X-Application-Key"),
  },
  {
    name: "changed security scheme (bearer → basic)",
    impact: "major",
    rule: "security-scheme-changed",
    change: (d) => (d.components.securitySchemes.bearerAuth.scheme = "basic"),
  },
  {
    name: "operation moved to another scheme",
    impact: "major",
    rule: "security-requirement-changed",
    change: (d) => (op(d, "/webhooks").security = [{ apiKey: [], apiSecret: [] }]),
  },
  { name: "security alternative added", impact: "minor", change: (d) => op(d, "/webhooks").security.push({ apiKey: [], apiSecret: [] }) },
  { name: "server URL change", impact: "major", rule: "server-removed", change: (d) => (d.servers[0].url = "https://api.authsvc.example/v2") },
  { name: "server added", impact: "minor", change: (d) => d.servers.push({ url: "https://eu.api.authsvc.example/v1" }) },
];
