// The JSON Schema of a seed file, made from the document's own components so that a seed
// record is valid exactly when the API could return it; only the seed-only parts
// (applications, credentials, users, the transport's plain auth) are written here.
import { loadDocument, resolveRef } from "../document/load.js";

type JsonSchema = Record<string, unknown>;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const list = (name: string): JsonSchema => ({ type: "array", items: ref(name) });
const hex64 = { type: "string", pattern: "^[0-9a-f]{64}$" };

/** The seed schema; `#/components/schemas/*` resolve inside it, as in the document. */
export function seedSchema(): JsonSchema {
  const document = loadDocument();
  const schemas = document.components!.schemas as Record<string, JsonSchema>;
  const transport = schemas.EmailTransport as { properties: Record<string, JsonSchema>; required: string[] };
  // The provider kinds and their settings schemas, from the request union's discriminator.
  const mapping = (schemas.EmailSettingsSave as { discriminator: { mapping: Record<string, string> } }).discriminator.mapping;
  const providerTypes = (schemas.EmailProviderType as { enum: string[] }).enum;
  const unmapped = providerTypes.filter((type) => !(type in mapping));
  if (unmapped.length > 0) throw new Error(`EmailSettingsSave's discriminator maps no settings for ${unmapped.join(", ")}`);
  const authOf = (settingsRef: string) => resolveRef<{ properties: { auth: JsonSchema } }>(document, { $ref: settingsRef }).properties.auth;
  const derived = ["auth", "domain", "region", "organization_id", "application_id"];
  const storedFields = Object.fromEntries(Object.entries(transport.properties).filter(([name]) => !derived.includes(name)));

  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    additionalProperties: false,
    required: ["applications"],
    properties: {
      applications: { type: "array", minItems: 1, items: { $ref: "#/$defs/Application" } },
    },
    $defs: {
      Application: {
        type: "object",
        additionalProperties: false,
        required: [
          "id",
          "organization_id",
          "name",
          "credentials",
          "users",
          "widgets",
          "activities",
          "encryption_reports",
          "sms_providers",
          "email_transport",
          "webhooks",
          "webhook_history",
        ],
        properties: {
          id: ref("Id"),
          organization_id: ref("Id"),
          name: { type: "string", minLength: 1, maxLength: 200 },
          credentials: { type: "array", minItems: 1, items: { $ref: "#/$defs/Credential" } },
          users: { type: "array", items: { $ref: "#/$defs/User" } },
          widgets: list("Widget"),
          activities: list("Activity"),
          encryption_reports: list("EncryptionReport"),
          sms_providers: list("SmsProvider"),
          // null: no transport saved yet. (if/else rather than anyOf, so errors name one branch.)
          email_transport: { if: { type: "null" }, else: { $ref: "#/$defs/EmailTransport" } },
          webhooks: list("Webhook"),
          webhook_history: list("WebhookHistoryRecord"),
        },
      },
      Credential: {
        description: "An API key and secret, in clear (public demo values only) or as SHA-256 hex digests.",
        type: "object",
        additionalProperties: false,
        properties: {
          api_key: { type: "string", minLength: 8, maxLength: 256 },
          api_key_sha256: hex64,
          api_secret: { type: "string", minLength: 8, maxLength: 256 },
          api_secret_sha256: hex64,
        },
        allOf: [{ oneOf: [{ required: ["api_key"] }, { required: ["api_key_sha256"] }] }, { oneOf: [{ required: ["api_secret"] }, { required: ["api_secret_sha256"] }] }],
      },
      User: {
        type: "object",
        additionalProperties: false,
        required: ["id", "email", "groups"],
        properties: {
          id: ref("Id"),
          email: ref("EmailAddress"),
          groups: { type: "array", uniqueItems: true, items: { type: "integer", minimum: 1, maximum: 9999999999 } },
        },
      },
      EmailTransport: {
        type: "object",
        required: [...transport.required.filter((name) => !derived.includes(name)), "auth"],
        properties: { ...storedFields, auth: true },
        unevaluatedProperties: false,
        allOf: Object.entries(mapping).map(([type, settingsRef]) => ({
          if: { properties: { type: { const: type } } },
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable
          then: { properties: { auth: authOf(settingsRef) } },
        })),
      },
    },
    components: { schemas },
  };
}
