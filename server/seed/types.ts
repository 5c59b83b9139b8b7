// The seed format: the records of each application exactly as the API returns them (the
// domain's resource types, server/domain/resources.ts), plus the seed-only parts the API never returns:
// credentials, users with their e-mail and groups, and the e-mail transport's plain auth.
import type { Activity, EmailTransport, EncryptionReport, SendgridAuth, SesAuth, SmsProvider, Webhook, WebhookHistoryRecord, Widget } from "../domain/index.js";

/** One API key of an application, in clear (public demo values) or as SHA-256 hex digests. */
export type SeedCredential = ({ api_key: string } | { api_key_sha256: string }) & ({ api_secret: string } | { api_secret_sha256: string });

/** A user of an application: the id its activity and reports use as `account_id`. */
export interface SeedUser {
  id: string;
  email: string;
  /** User-group ids (the `groups` of POST /notifications, the `group` filter of reports). */
  groups: number[];
}

/** The stored e-mail transport; `domain`, `region`, the ids and the token are derived at load. */
export type SeedEmailTransport = Omit<EmailTransport, "auth" | "domain" | "region" | "organization_id" | "application_id" | "type"> &
  ({ type: "SENDGRID"; auth: SendgridAuth } | { type: "SES"; auth: SesAuth });

export interface SeedApplication {
  id: string;
  organization_id: string;
  name: string;
  credentials: SeedCredential[];
  users: SeedUser[];
  widgets: Widget[];
  activities: Activity[];
  encryption_reports: EncryptionReport[];
  sms_providers: SmsProvider[];
  email_transport: SeedEmailTransport | null;
  webhooks: Webhook[];
  webhook_history: WebhookHistoryRecord[];
}

export interface Seed {
  applications: SeedApplication[];
}
