// Everything the store holds for one application. Only the store module mutates it, and
// each mutation is one synchronous step, so concurrent requests never see half an update.
import type { Activity, Caller, EmailTransport, Notification, SmsProvider, Webhook, WebhookHistoryRecord, Widget } from "../domain/index.js";
import { sealAuth } from "../crypto/email-auth.js";
import { sortNewestFirst } from "../rules/order.js";
import type { SeedApplication, SeedUser } from "../seed/types.js";
import { storedAuth, transportRecord } from "../rules/email-transport.js";
import { seedAudience, type Audience } from "../rules/notifications.js";
import { ReportTable } from "./reports.js";

export class ApplicationData {
  readonly caller: Caller;
  readonly name: string;
  readonly widgets = new Map<string, Widget>();
  readonly users = new Map<string, SeedUser>();
  /** Activity per user id, newest first. */
  readonly activity = new Map<string, Activity[]>();
  readonly reports: ReportTable;
  /** Providers ordered by position (`sort` 1..n). */
  smsProviders: SmsProvider[];
  emailTransport: EmailTransport | undefined;
  readonly webhooks = new Map<string, Webhook>();
  /** Webhooks newest first. */
  readonly webhookList: Webhook[];
  /** History per webhook id, newest first. */
  readonly webhookHistory = new Map<string, WebhookHistoryRecord[]>();
  readonly notifications: Notification[] = [];
  /** Who may receive notifications: users who have logged in; the groups that exist. */
  readonly #audience: Audience;

  constructor(seed: SeedApplication) {
    this.caller = { applicationId: seed.id, organizationId: seed.organization_id };
    this.name = seed.name;
    for (const widget of seed.widgets) this.widgets.set(widget.id, structuredClone(widget));
    for (const user of seed.users) {
      this.users.set(user.id, { ...user, groups: [...user.groups] });
      this.activity.set(user.id, []);
    }
    for (const record of sortNewestFirst(seed.activities)) this.activity.get(record.account_id)?.push(structuredClone(record));
    this.#audience = seedAudience(seed.users, seed.activities);
    this.reports = new ReportTable((accountId) => this.users.get(accountId)?.groups ?? []);
    this.reports.add(seed.encryption_reports);
    this.smsProviders = structuredClone(seed.sms_providers).sort((a, b) => a.sort - b.sort);
    const transport = seed.email_transport;
    this.emailTransport = transport === null ? undefined : transportRecord(transport, storedAuth(transport.auth, sealAuth), this.caller);
    this.webhookList = sortNewestFirst(structuredClone(seed.webhooks));
    for (const webhook of this.webhookList) {
      this.webhooks.set(webhook.id, webhook);
      this.webhookHistory.set(webhook.id, []);
    }
    for (const record of sortNewestFirst(seed.webhook_history)) this.webhookHistory.get(record.webhook_id)?.push(structuredClone(record));
  }

  /** True for the id or e-mail (any case) of a user with an APPROVED AUTHENTICATION activity. */
  canReceive(receiver: string): boolean {
    return this.#audience.canReceive(receiver);
  }

  /** True for a group some user of the application belongs to. */
  hasGroup(group: number): boolean {
    return this.#audience.hasGroup(group);
  }
}
