// The security matrix: for every operation, one valid request (A's ids, a valid body) sent
// with each kind of credentials, and the status each must get. Cross-application rows send
// application B's credentials at A's records. The secrets sent here are what the scan looks for.
import { operations, type OperationId } from "../../generated/operations.js";

export const apps = {
  A: { key: "ak_live_acme_4f9e2b7c1d8a6e3f", secret: "as_live_acme_9b1e6d3f7a2c5e8b" },
  B: { key: "ak_live_globex_2d7a9c4e1f6b3a8d", secret: "as_live_globex_5e8b2f1c7d4a9e6b" },
} as const;
export const unknownKey = "ak_live_unknown_7e3c9a1f5d2b8e4a";
export const unknownSecret = "as_live_unknown_1b8d4f7a2e9c6d3f";
/** E-mail auth secrets submitted by the matrix (they must come back only as the opaque token). */
export const emailSecrets = { sendgrid: "SG.matrix-sendgrid-9f2c7e1a4b8d", ses: "matrix/ses+Secret/4d9a1e7c2b8f6e3a" };

/** Every secret the test run submits: none may appear in a response or a log line. */
export const submittedSecrets = [apps.A.key, apps.A.secret, apps.B.key, apps.B.secret, unknownKey, unknownSecret, emailSecrets.sendgrid, emailSecrets.ses];

export interface Call {
  method: string;
  /** Path below `/v1`. */
  path: string;
  body?: unknown;
}

/** A valid request of each operation, on application A's records. */
export const requests: Record<OperationId, Call> = {
  readWidget: { method: "GET", path: "/widgets/wgt_5a3c8e1f7b92" },
  findUserActivity: { method: "GET", path: "/users/usr_7d2e9a4c1b6f/activity" },
  findEncryptionReports: { method: "GET", path: "/reports/encryption?country=ES" },
  updateSmsProvider: { method: "PUT", path: "/sms/providers/sms_9e4a1d7c3b2f", body: { name: "Backup gateway" } },
  saveEmailTransport: {
    method: "POST",
    path: "/custom/emails",
    body: { type: "SENDGRID", auth: { api_key: emailSecrets.sendgrid }, email_from: "noreply@acme-shop.example", email_admin: "admin@acme-shop.example" },
  },
  createNotification: {
    method: "POST",
    path: "/notifications",
    body: { type: "SIMPLE", title: "Security matrix", content: "A broadcast from the security matrix.", broadcast: true, send_at: "now" },
  },
  readWebhook: { method: "GET", path: "/webhooks/whk_3a7f1c9e5b2d" },
  findWebhookHistory: { method: "GET", path: "/webhooks/whk_3a7f1c9e5b2d/history" },
  findWebhooks: { method: "GET", path: "/webhooks" },
};

export const credentialKinds = ["no credentials", "wrong scheme", "unknown key", "key without secret", "wrong secret", "right key"] as const;
export type CredentialKind = (typeof credentialKinds)[number];

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const pair = (key: string, secret: string) => ({ "x-api-key": key, "x-api-secret": secret });

/** The headers of one kind of credentials for an operation (app A unless told). */
export function credentials(id: OperationId, kind: CredentialKind, app: keyof typeof apps = "A"): Record<string, string> {
  const { key, secret } = apps[app];
  const usesBearer = (operations[id].security as readonly string[]).includes("bearerAuth");
  switch (kind) {
    case "no credentials":
      return {};
    case "wrong scheme":
      return usesBearer ? pair(key, secret) : bearer(key);
    case "unknown key":
      return usesBearer ? bearer(unknownKey) : pair(unknownKey, secret);
    case "key without secret":
      return usesBearer ? { "x-api-key": key } : { "x-api-key": key };
    case "wrong secret":
      return usesBearer ? { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}` } : pair(key, unknownSecret);
    case "right key":
      return usesBearer ? bearer(key) : pair(key, secret);
  }
}

/** What each kind of credentials must get: 401 for all but the right ones. */
export const expectedStatus = (kind: CredentialKind) => (kind === "right key" ? 200 : 401);

/** Operations on an id of A's: B's key must get 404 (never revealing that the id exists). */
export const crossApplication: OperationId[] = ["readWidget", "findUserActivity", "updateSmsProvider", "readWebhook", "findWebhookHistory"];

/** A's record ids that must never appear in an answer to B. */
export const idsOfA = ["wgt_5a3c8e1f7b92", "usr_7d2e9a4c1b6f", "usr_1c5e8a3d7f2b", "rep_6b2d9f4a1c8e", "rep_2e7c1a9f5b3d", "sms_2c7e9b4f1a6d", "sms_9e4a1d7c3b2f", "eml_8f3b1e6c2a9d", "whk_3a7f1c9e5b2d", "whk_8d1f6b3a9c4e", "whh_5c9e2a7f1d3b", "whh_1a6d3f8b2e9c", "app_8c1f5e20d9b4", "org_4b7d2e91c0a3"];
