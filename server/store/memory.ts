// The in-memory store: the store port (server/domain/store.ts) over the records of a seed.
//
// It keeps the port's guarantees without locks: each method does its whole work (read, rule,
// write) synchronously before the promise it returns settles, with no await inside.
// JavaScript runs one synchronous step at a time, so two changes never interleave and a
// change never reads a state another change is half-way through (no lost update).
// test/stores/memory/concurrency.test.ts proves it over HTTP.
import { randomBytes } from "node:crypto";
import { openAuth, sealAuth } from "../crypto/email-auth.js";
import { notFound } from "../problems.js";
import { saveTransport } from "../rules/email-transport.js";
import { createNotification, notificationsKept } from "../rules/notifications.js";
import { pageOf } from "../rules/paging.js";
import { updateProvider } from "../rules/sms-providers.js";
import type { Store } from "../domain/index.js";
import type { Seed } from "../seed/types.js";
import { ApplicationData } from "./application.js";
import { CredentialTable } from "./credentials.js";

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
