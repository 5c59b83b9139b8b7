// The store port and its in-memory implementation: the data of every application, reached
// only through the caller's application, so another application's id looks exactly like an
// unknown one (404).
//
// Every method returns a promise, so a database can sit behind the same handlers. The
// in-memory store keeps its guarantees without locks: each method does its whole work
// (read, rule, write) synchronously before the promise it returns settles, with no await
// inside. JavaScript runs one synchronous step at a time, so two changes never interleave
// and a change never reads a state another change is half-way through (no lost update).
// A store that awaits between reading and writing (a database round trip) must give the
// same guarantees itself: a transaction, a row lock or a single UPDATE statement.
// test/server/store/concurrency.test.ts proves both over HTTP.
import { randomBytes } from "node:crypto";
import type { Caller } from "../express/contract.js";
import { openAuth, sealAuth } from "../crypto/email-auth.js";
import { notFound } from "../problems.js";
import { saveTransport } from "../rules/email-transport.js";
import { createNotification, notificationsKept } from "../rules/notifications.js";
import { pageOf, type Page, type Paging } from "../rules/paging.js";
import { updateProvider } from "../rules/sms-providers.js";
import type {
  Activity,
  EmailSettingsSave,
  EmailTransport,
  EncryptionReport,
  Notification,
  NotificationCreate,
  Seed,
  SmsProvider,
  SmsProviderUpdate,
  Webhook,
  WebhookHistoryRecord,
  Widget,
} from "../seed/types.js";
import { ApplicationData } from "./application.js";
import { CredentialTable } from "./credentials.js";
import type { ReportFilters } from "./reports.js";

export type { ReportFilters } from "./reports.js";
export type { Page, Paging } from "../rules/paging.js";

export interface Store {
  /** The application of a bearer API key, or undefined for an unknown key. */
  authenticateBearer(apiKey: string): Promise<Caller | undefined>;
  /** The application of an API key and secret pair, or undefined unless both match. */
  authenticateKeyPair(apiKey: string, apiSecret: string): Promise<Caller | undefined>;
  /** The applications held, by id with their names (server/main.ts's start-up lines; tests). */
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
  /** The latest notifications (at most notificationsKept), oldest first. */
  notifications(applicationId: string): Promise<Notification[]>;
  webhook(applicationId: string, id: string): Promise<Webhook>;
  webhooks(applicationId: string, paging: Paging): Promise<Page<Webhook>>;
  /** A webhook's deliveries, newest first; 404 for a webhook not of this application. */
  webhookHistory(applicationId: string, webhookId: string, paging: Paging): Promise<Page<WebhookHistoryRecord>>;
}

/** A store holding the records of `seed` (which should have been checked by loadSeed). */
export function createStore(seed: Seed): Store {
  const credentials = new CredentialTable();
  const apps = new Map<string, ApplicationData>();
  for (const application of seed.applications) {
    if (apps.has(application.id)) throw new Error(`seed: application ${application.id} is given twice`);
    const data = new ApplicationData(application);
    apps.set(application.id, data);
    for (const credential of application.credentials) credentials.add(credential, data.caller);
  }

  // An unknown application only arises from a caller the store did not authenticate.
  const app = (applicationId: string): ApplicationData => {
    const data = apps.get(applicationId);
    if (data === undefined) throw notFound(`Application ${applicationId} was not found.`);
    return data;
  };

  // `async` with no await inside: the whole body runs before the returned promise settles,
  // and a thrown problem becomes a rejection.
  return handingOutCopies({
    authenticateBearer: async (apiKey) => credentials.bearer(apiKey),
    authenticateKeyPair: async (apiKey, apiSecret) => credentials.keyPair(apiKey, apiSecret),
    applications: async () => [...apps.values()].map((data) => ({ id: data.caller.applicationId, organizationId: data.caller.organizationId, name: data.name })),

    async widget(applicationId, id) {
      const widget = app(applicationId).widgets.get(id);
      if (widget === undefined) throw notFound(`Widget ${id} was not found.`);
      return widget;
    },

    async userActivity(applicationId, userId, paging) {
      const activity = app(applicationId).activity.get(userId);
      if (activity === undefined) throw notFound(`User ${userId} was not found.`);
      return pageOf(activity, paging);
    },

    encryptionReports: async (applicationId, filters, paging) => app(applicationId).reports.find(filters, paging),
    addReports: async (applicationId, records) => app(applicationId).reports.add(records),

    smsProviders: async (applicationId) => [...app(applicationId).smsProviders],

    async updateSmsProvider(applicationId, id, patch) {
      const data = app(applicationId);
      const { providers, updated } = updateProvider(data.smsProviders, id, patch);
      data.smsProviders = providers;
      return updated;
    },

    emailTransport: async (applicationId) => app(applicationId).emailTransport,

    async saveEmailTransport(applicationId, settings, now) {
      const data = app(applicationId);
      data.emailTransport = saveTransport(data.emailTransport, settings, {
        ...data.caller,
        now,
        newId: () => `eml_${randomBytes(6).toString("hex")}`,
        seal: sealAuth,
        open: openAuth,
      });
      return data.emailTransport;
    },

    async createNotification(applicationId, request, now) {
      const data = app(applicationId);
      const notification = createNotification(request, data, now);
      data.notifications.push(notification);
      if (data.notifications.length > notificationsKept) data.notifications.splice(0, data.notifications.length - notificationsKept);
      return notification;
    },

    notifications: async (applicationId) => [...app(applicationId).notifications],

    async webhook(applicationId, id) {
      const webhook = app(applicationId).webhooks.get(id);
      if (webhook === undefined) throw notFound(`Webhook ${id} was not found.`);
      return webhook;
    },

    webhooks: async (applicationId, paging) => pageOf(app(applicationId).webhookList, paging),

    async webhookHistory(applicationId, webhookId, paging) {
      const history = app(applicationId).webhookHistory.get(webhookId);
      if (history === undefined) throw notFound(`Webhook ${webhookId} was not found.`);
      return pageOf(history, paging);
    },
  });
}

/**
 * `store` with every answer deep-copied: a caller that changes a record it was handed changes
 * nothing stored, as with a database, and a record read before a change still shows the state
 * before it. The copy is taken after the method's synchronous body, so the guarantees above hold.
 * A frozen answer (the authenticated Caller) cannot be changed and is handed out as it is.
 */
function handingOutCopies(store: Store): Store {
  const copy = (answer: unknown) => (Object.isFrozen(answer) ? answer : structuredClone(answer));
  const copying = Object.entries(store).map(([name, method]: [string, (...args: unknown[]) => Promise<unknown>]) => [
    name,
    async (...args: unknown[]) => copy(await method(...args)),
  ]);
  return Object.fromEntries(copying) as Store;
}
