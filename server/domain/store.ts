// The store port: the data of every application, reached only through the caller's
// application, so another application's id looks exactly like an unknown one (404).
//
// Every method returns a promise, so a database can sit behind the same handlers. A store
// must not let two changes interleave: a change never reads a state another change is
// half-way through (no lost update). The in-memory store (server/store/memory.ts) gets this
// from running each method synchronously; a store that awaits between reading and writing
// (a database round trip) needs a transaction, a row lock or a single UPDATE statement.
// test/stores/memory/concurrency.test.ts proves both over HTTP.
import type { Caller } from "./caller.js";
import type { Page, Paging, ReportFilters } from "./query.js";
import type {
  Activity,
  EmailSettingsSave,
  EmailTransport,
  EncryptionReport,
  Notification,
  NotificationCreate,
  SmsProvider,
  SmsProviderUpdate,
  Webhook,
  WebhookHistoryRecord,
  Widget,
} from "./resources.js";

export interface Store {
  /** The application of a bearer API key, or undefined for an unknown key. */
  authenticateBearer(apiKey: string): Promise<Caller | undefined>;
  /** The application of an API key and secret pair, or undefined unless both match. */
  authenticateKeyPair(apiKey: string, apiSecret: string): Promise<Caller | undefined>;
  /** The applications held, by id with their names (the reference server's start-up lines; tests). */
  applications(): Promise<{ id: string; organizationId: string; name: string }[]>;

  widget(applicationId: string, id: string): Promise<Widget>;
  /** A user's activity, newest first; 404 for a user not of this application. */
  userActivity(applicationId: string, userId: string, paging: Paging): Promise<Page<Activity>>;
  encryptionReports(applicationId: string, filters: ReportFilters, paging: Paging): Promise<Page<EncryptionReport>>;
  /** Bulk load: adds reports to an application and rebuilds its indexes once. */
  addReports(applicationId: string, records: readonly EncryptionReport[]): Promise<void>;
  /** The application's providers ordered by position. */
  smsProviders(applicationId: string): Promise<SmsProvider[]>;
  updateSmsProvider(applicationId: string, id: string, patch: SmsProviderUpdate): Promise<SmsProvider>;
  /** The stored transport (auth as the opaque token), if one was saved. */
  emailTransport(applicationId: string): Promise<EmailTransport | undefined>;
  saveEmailTransport(applicationId: string, settings: EmailSettingsSave, now: Date): Promise<EmailTransport>;
  createNotification(applicationId: string, request: NotificationCreate, now: Date): Promise<Notification>;
  /** The latest notifications (at most server/rules/notifications.ts's notificationsKept), oldest first. */
  notifications(applicationId: string): Promise<Notification[]>;
  webhook(applicationId: string, id: string): Promise<Webhook>;
  webhooks(applicationId: string, paging: Paging): Promise<Page<Webhook>>;
  /** A webhook's deliveries, newest first; 404 for a webhook not of this application. */
  webhookHistory(applicationId: string, webhookId: string, paging: Paging): Promise<Page<WebhookHistoryRecord>>;
}
