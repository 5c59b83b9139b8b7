// The demo applications and records as the tests use them, read from the server's demo seed
// (`server/seed/demo.json`), never restated: application A owns the document's examples,
// B is another application (for the isolation checks).
import { loadSeed } from "../../server/seed/load.js";
import type { SeedApplication } from "../../server/seed/types.js";
import { successExample } from "./document.js";

export interface DemoApplication {
  name: string;
  apiKey: string;
  apiSecret: string;
  applicationId: string;
  organizationId: string;
}

const seed = loadSeed();

function application(app: SeedApplication): DemoApplication {
  const credential = app.credentials.find((c) => "api_key" in c && "api_secret" in c) as { api_key: string; api_secret: string } | undefined;
  if (!credential) throw new Error(`the demo seed has no clear-text credentials for ${app.id}`);
  return { name: app.name, apiKey: credential.api_key, apiSecret: credential.api_secret, applicationId: app.id, organizationId: app.organization_id };
}

const exampleOwner = (successExample("readWidget") as { result: { application_id: string } }).result.application_id;
const seedA = seed.applications.find((app) => app.id === exampleOwner);
const seedB = seed.applications.find((app) => app.id !== exampleOwner);
if (!seedA || !seedB) throw new Error("the demo seed needs the examples' application and a second one");

/** Application A: the owner of the document's examples. */
export const appA: DemoApplication = application(seedA);
/** Application B: another application of the demo seed. */
export const appB: DemoApplication = application(seedB);
export const demo = { a: appA, b: appB } as const;

/** The demo seed's records of an application, by kind. */
export function recordsOf(app: DemoApplication) {
  const found = seed.applications.find((a) => a.id === app.applicationId)!;
  return {
    widgets: found.widgets.map((r) => r.id),
    users: found.users.map((r) => r.id),
    userEmails: found.users.map((r) => r.email),
    encryptionReports: found.encryption_reports.map((r) => r.id),
    smsProviders: found.sms_providers.map((r) => r.id),
    defaultSmsProvider: found.sms_providers.find((r) => r.is_default)?.id,
    emailTransport: found.email_transport?.id,
    webhooks: found.webhooks.map((r) => r.id),
    webhookHistory: found.webhook_history.map((r) => r.id),
  };
}

/** Application A's demo records. */
export const recordsOfA = recordsOf(appA);

/** Every id of application A (its records, the application and the organization). */
export const idsOf = (app: DemoApplication): string[] => {
  const r = recordsOf(app);
  return [
    ...r.widgets,
    ...r.users,
    ...r.encryptionReports,
    ...r.smsProviders,
    ...(r.emailTransport ? [r.emailTransport] : []),
    ...r.webhooks,
    ...r.webhookHistory,
    app.applicationId,
    app.organizationId,
  ];
};
