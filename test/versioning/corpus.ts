// The labelled corpus: changes to this project's own bundle, each with the classification a
// client written against the unchanged document would give it and the rule that must name
// it. `prepare` (applied to both sides) sets up a starting point the document lacks.
import type { RuleId } from "../../scripts/diff/rules.js";
import type { Node } from "../support/document.js";

export interface Labelled {
  name: string;
  breaking: boolean;
  /** The rule that must be reported; null: the change must report nothing at all. */
  rule: RuleId | null;
  change: (doc: Node) => void;
  prepare?: (doc: Node) => void;
}

const schema = (doc: Node, name: string): Node => doc.components.schemas[name];
const param = (doc: Node, name: string): Node => doc.components.parameters[name];
const op = (doc: Node, path: string, method = "get"): Node => doc.paths[path][method];
const without = <T>(list: T[], item: T): T[] => list.filter((x) => x !== item);

export const corpus: Labelled[] = [
  // Operations and paths
  { name: "removed operation", breaking: true, rule: "operation-removed", change: (d) => delete d.paths["/webhooks/{id}/history"].get },
  { name: "removed path", breaking: true, rule: "operation-removed", change: (d) => delete d.paths["/widgets/{id}"] },
  {
    name: "renamed path",
    breaking: true,
    rule: "operation-removed",
    change: (d) => {
      d.paths["/webhooks/{id}/deliveries"] = d.paths["/webhooks/{id}/history"];
      delete d.paths["/webhooks/{id}/history"];
    },
  },
  {
    name: "new operation",
    breaking: false,
    rule: "operation-added",
    change: (d) => (d.paths["/webhooks/{id}"].delete = { ...structuredClone(op(d, "/webhooks/{id}")), operationId: "deleteWebhook" }),
  },
  { name: "operationId renamed", breaking: true, rule: "operation-id-changed", change: (d) => (op(d, "/widgets/{id}").operationId = "getWidget") },
  {
    name: "path parameter renamed (same place in the template)",
    breaking: false,
    rule: null,
    change: (d) => {
      d.paths["/widgets/{widgetId}"] = d.paths["/widgets/{id}"];
      delete d.paths["/widgets/{id}"];
      param(d, "WidgetId").name = "widgetId";
    },
  },
  { name: "description and example edits only", breaking: false, rule: null, change: (d) => {
    op(d, "/webhooks").description = "Another text.";
    schema(d, "Webhook").properties.url.examples = ["https://example.org/hook"];
    param(d, "Limit").example = 50;
  } },
  {
    name: "inline schema moved into a component",
    breaking: false,
    rule: null,
    change: (d) => {
      d.components.schemas.WebhookUrl = schema(d, "Webhook").properties.url;
      schema(d, "Webhook").properties.url = { $ref: "#/components/schemas/WebhookUrl" };
    },
  },
  { name: "deprecated operation", breaking: false, rule: "operation-deprecated", change: (d) => Object.assign(op(d, "/widgets/{id}"), { deprecated: true, "x-sunset": "2027-06-30" }) },

  // Parameters
  {
    name: "new required query parameter",
    breaking: true,
    rule: "request-required-parameter-added",
    change: (d) => op(d, "/webhooks").parameters.push({ name: "event", in: "query", required: true, schema: { type: "string" } }),
  },
  {
    name: "new optional query parameter",
    breaking: false,
    rule: "request-optional-parameter-added",
    change: (d) => op(d, "/webhooks").parameters.push({ name: "event", in: "query", required: false, schema: { type: "string" } }),
  },
  { name: "optional parameter made required", breaking: true, rule: "request-parameter-became-required", change: (d) => (param(d, "ReportStatus").required = true) },
  { name: "required parameter made optional", breaking: false, rule: "request-parameter-became-optional", prepare: (d) => (param(d, "Limit").required = true), change: (d) => (param(d, "Limit").required = false) },
  {
    name: "parameter removed",
    breaking: true,
    rule: "request-parameter-removed",
    change: (d) => (op(d, "/reports/encryption").parameters = op(d, "/reports/encryption").parameters.filter((p: Node) => p.$ref !== "#/components/parameters/ReportStatus")),
  },
  { name: "parameter type change", breaking: true, rule: "request-type-changed", change: (d) => (param(d, "Limit").schema.type = "string") },
  { name: "parameter type widened", breaking: false, rule: "request-type-widened", change: (d) => (param(d, "Limit").schema.type = ["integer", "null"]) },
  { name: "tighter maximum of a request parameter", breaking: true, rule: "request-bound-tightened", change: (d) => (param(d, "Limit").schema.maximum = 50) },
  { name: "looser maximum of a request parameter", breaking: false, rule: "request-bound-loosened", change: (d) => (param(d, "Limit").schema.maximum = 500) },
  { name: "looser minimum of a request parameter", breaking: false, rule: "request-bound-loosened", change: (d) => (param(d, "Limit").schema.minimum = 1) },
  { name: "default value of a parameter changed", breaking: true, rule: "request-default-changed", change: (d) => (param(d, "Limit").schema.default = 20) },
  { name: "deprecated parameter", breaking: false, rule: "request-parameter-deprecated", change: (d) => Object.assign(param(d, "ReportStatus"), { deprecated: true, "x-sunset": "2027-06-30" }) },

  // Request bodies
  { name: "tighter maxLength in a request", breaking: true, rule: "request-bound-tightened", change: (d) => (schema(d, "SmsProviderUpdate").properties.name.maxLength = 50) },
  { name: "looser maxLength in a request", breaking: false, rule: "request-bound-loosened", change: (d) => (schema(d, "SmsProviderUpdate").properties.name.maxLength = 200) },
  { name: "tighter minItems in a request (RADIO)", breaking: true, rule: "request-bound-tightened", change: (d) => (schema(d, "RadioNotificationCreate").properties.radio.minItems = 3) },
  { name: "changed pattern in a request", breaking: true, rule: "request-pattern-changed", change: (d) => (schema(d, "SesSettings").properties.auth.properties.region.pattern = "^[a-z]{2}-[a-z]+-\\d$") },
  { name: "new pattern in a request", breaking: true, rule: "request-pattern-added", change: (d) => (schema(d, "SmsProviderUpdate").properties.name.pattern = "^[A-Za-z ]+$") },
  { name: "pattern removed in a request", breaking: false, rule: "request-pattern-removed", change: (d) => delete schema(d, "SesSettings").properties.auth.properties.region.pattern },
  { name: "format changed in a request", breaking: true, rule: "request-format-changed", change: (d) => (schema(d, "EmailAddress").format = "idn-email") },
  {
    name: "new required request body field",
    breaking: true,
    rule: "request-required-property-added",
    change: (d) => {
      schema(d, "SmsProviderUpdate").properties.channel = { type: "string" };
      schema(d, "SmsProviderUpdate").required = ["channel"];
    },
  },
  { name: "new optional request body field", breaking: false, rule: "request-property-added", change: (d) => (schema(d, "SmsProviderUpdate").properties.channel = { type: "string" }) },
  { name: "optional request field made required", breaking: true, rule: "request-property-became-required", change: (d) => (schema(d, "SmsProviderUpdate").required = ["name"]) },
  { name: "request field removed (closed schema)", breaking: true, rule: "request-property-removed", change: (d) => delete schema(d, "SmsProviderUpdate").properties.is_active },
  { name: "new enum value in a request", breaking: false, rule: "request-enum-value-added", change: (d) => schema(d, "SmsProviderUpdate").properties.sort.enum.push("CORPUS_ADDED") },
  { name: "removed enum value in a request", breaking: true, rule: "request-enum-value-removed", change: (d) => (schema(d, "SmsProviderUpdate").properties.sort.enum = ["UP"]) },
  {
    name: "const of a request variant changed (SIMPLE → PLAIN)",
    breaking: true,
    rule: "request-const-changed",
    change: (d) => (schema(d, "SimpleNotificationCreate").allOf[0].properties.type.const = "PLAIN"),
  },
  { name: "default value of a request field changed", breaking: true, rule: "request-default-changed", change: (d) => (schema(d, "NotificationFields").properties.level.default = 50) },
  {
    name: "discriminator mapping change",
    breaking: true,
    rule: "discriminator-mapping-changed",
    change: (d) => (schema(d, "NotificationCreate").discriminator.mapping.SURVEY = "#/components/schemas/RadioNotificationCreate"),
  },
  {
    name: "new oneOf variant in a request",
    breaking: false,
    rule: "request-union-branch-added",
    change: (d) => {
      const banner = structuredClone(schema(d, "SimpleNotificationCreate"));
      banner.allOf[0].properties.type.const = "CORPUS_VARIANT";
      d.components.schemas.BannerNotificationCreate = banner;
      schema(d, "NotificationCreate").oneOf.push({ $ref: "#/components/schemas/BannerNotificationCreate" });
      schema(d, "NotificationCreate").discriminator.mapping.CORPUS_VARIANT = "#/components/schemas/BannerNotificationCreate";
    },
  },
  {
    name: "oneOf variant removed from a request",
    breaking: true,
    rule: "request-union-branch-removed",
    change: (d) => {
      const union = schema(d, "NotificationCreate");
      union.oneOf = union.oneOf.filter((b: Node) => !b.$ref.endsWith("/CheckboxNotificationCreate"));
      delete union.discriminator.mapping.CHECKBOX;
    },
  },
  {
    name: "unevaluatedProperties: false added to a request variant",
    breaking: true,
    rule: "request-properties-closed",
    prepare: (d) => delete schema(d, "SurveyNotificationCreate").unevaluatedProperties,
    change: (d) => (schema(d, "SurveyNotificationCreate").unevaluatedProperties = false) },
  { name: "unevaluatedProperties: false removed from a request variant", breaking: false, rule: "request-properties-opened", change: (d) => delete schema(d, "SimpleNotificationCreate").unevaluatedProperties },
  { name: "if condition changed (broadcast)", breaking: true, rule: "conditional-changed", change: (d) => (schema(d, "NotificationFields").if.properties.broadcast.const = false) },
  { name: "then branch tightened (receivers)", breaking: true, rule: "request-bound-tightened", change: (d) => (schema(d, "NotificationFields").else.anyOf[0].properties.receivers.minItems = 2) },
  {
    name: "if/then/else removed from a request",
    breaking: false,
    rule: "request-conditional-removed",
    change: (d) => {
      for (const key of ["if", "then", "else"]) delete schema(d, "NotificationFields")[key];
    },
  },
  { name: "request body made optional", breaking: false, rule: "request-body-became-optional", change: (d) => (op(d, "/sms/providers/{id}", "put").requestBody.required = false) },
  { name: "request media type removed", breaking: true, rule: "request-media-type-removed", change: (d) => {
    const content = op(d, "/sms/providers/{id}", "put").requestBody.content;
    content["application/merge-patch+json"] = content["application/json"];
    delete content["application/json"];
  } },

  // Responses
  { name: "removed response field", breaking: true, rule: "response-property-removed", change: (d) => {
    delete schema(d, "Webhook").properties.is_active;
    schema(d, "Webhook").required = without(schema(d, "Webhook").required, "is_active");
  } },
  { name: "response field made optional", breaking: true, rule: "response-property-became-optional", change: (d) => (schema(d, "Webhook").required = without(schema(d, "Webhook").required, "url")) },
  { name: "new response field", breaking: false, rule: "response-property-added", change: (d) => {
    schema(d, "Webhook").properties.description = { type: "string" };
    schema(d, "Webhook").required.push("description");
  } },
  { name: "optional response field made required", breaking: false, rule: "response-property-became-required", prepare: (d) => (schema(d, "Webhook").required = without(schema(d, "Webhook").required, "url")), change: (d) => schema(d, "Webhook").required.push("url") },
  { name: "new enum value in a response", breaking: true, rule: "response-enum-value-added", change: (d) => schema(d, "NotificationType").enum.push("CORPUS_ADDED") },
  { name: "removed enum value in a response", breaking: false, rule: "response-enum-value-removed", change: (d) => (schema(d, "EmailProviderType").enum = ["SENDGRID"]) },
  {
    name: "const change of a response `type`",
    breaking: true,
    rule: "response-const-changed",
    change: (d) => (schema(d, "NotificationCreateResponse").properties.type.const = "api.notification.create"),
  },
  { name: "response field made nullable", breaking: true, rule: "response-type-changed", change: (d) => (schema(d, "Webhook").properties.url.type = ["string", "null"]) },
  { name: "looser maxLength in a response", breaking: true, rule: "response-bound-loosened", change: (d) => (schema(d, "Webhook").properties.url.maxLength = 4096) },
  { name: "tighter maxLength in a response", breaking: false, rule: "response-bound-tightened", change: (d) => (schema(d, "Webhook").properties.url.maxLength = 1024) },
  { name: "deprecated response field", breaking: false, rule: "property-deprecated", change: (d) => (schema(d, "Webhook").properties.is_active.deprecated = true) },
  { name: "new error status", breaking: false, rule: "response-error-status-added", change: (d) => (op(d, "/webhooks/{id}").responses["409"] = { $ref: "#/components/responses/Conflict" }) },
  { name: "error status removed", breaking: false, rule: "response-error-status-removed", change: (d) => delete op(d, "/widgets/{id}").responses["404"] },
  { name: "success status changed (200 → 201)", breaking: true, rule: "response-success-status-removed", change: (d) => {
    const responses = op(d, "/notifications", "post").responses;
    responses["201"] = responses["200"];
    delete responses["200"];
  } },
  { name: "response header removed", breaking: false, rule: "response-optional-header-removed", change: (d) => delete op(d, "/webhooks").responses["200"].headers["X-Request-Id"] },
  { name: "response media type removed", breaking: true, rule: "response-media-type-removed", change: (d) => {
    const content = op(d, "/webhooks").responses["200"].content;
    content["application/vnd.authsvc+json"] = content["application/json"];
    delete content["application/json"];
  } },

  // Security and servers
  { name: "changed security scheme (apiKey header name)", breaking: true, rule: "security-scheme-changed", change: (d) => (d.components.securitySchemes.apiKey.name = "X-Application-Key") },
  { name: "changed security scheme (bearer → basic)", breaking: true, rule: "security-scheme-changed", change: (d) => (d.components.securitySchemes.bearerAuth.scheme = "basic") },
  { name: "operation moved to another scheme", breaking: true, rule: "security-requirement-removed", change: (d) => (op(d, "/webhooks").security = [{ apiKey: [], apiSecret: [] }]) },
  { name: "security alternative added", breaking: false, rule: "security-requirement-added", change: (d) => op(d, "/webhooks").security.push({ apiKey: [], apiSecret: [] }) },
  { name: "server URL change", breaking: true, rule: "server-removed", change: (d) => (d.servers[0].url = "https://api.authsvc.example/v2") },
  { name: "server added", breaking: false, rule: "server-added", change: (d) => d.servers.push({ url: "https://eu.api.authsvc.example/v1" }) },
];
