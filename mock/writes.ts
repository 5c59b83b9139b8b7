// What the mock's writes answer: what the reference server would answer that request on its
// freshly seeded demo data, computed by the server's own rules (server/rules/) over a copy of
// the seed's records and then forgotten, so the mock stays stateless. The seed is the one
// source of the records a write starts from; the document's write examples are the server's
// answers to the documented requests on it (test/mock/writes.test.ts checks both). An id the
// seed does not have starts from the documented example under the requested id, so any
// well-formed id is still answered, with the request applied.
import { readFileSync } from "node:fs";
import { examples } from "../generated/examples.js";
import type { NotificationCreate, SmsProvider, SmsProviderUpdate, EmailSettingsSave } from "../server/domain/index.js";
import { openAuth } from "../server/crypto/email-auth.js";
import { saveTransport } from "../server/rules/email-transport.js";
import { createNotification } from "../server/rules/notifications.js";
import { updateProvider } from "../server/rules/sms-providers.js";
import type { Seed } from "../server/seed/types.js";
import { ApplicationData } from "../server/store/application.js";

/** What a write handler receives from the contract layer. */
export interface WriteInput {
  path: Record<string, unknown>;
  body?: unknown;
  caller: { applicationId: string };
}

type Write = (input: WriteInput) => unknown;

/** Per application of the seed, its data as the server's store holds it after seeding (built on first use). */
function seedData(seedFile: string | URL): (applicationId: string) => ApplicationData | undefined {
  let applications: Map<string, ApplicationData> | undefined;
  return (applicationId) => {
    applications ??= new Map((JSON.parse(readFileSync(seedFile, "utf8")) as Seed).applications.map((application) => [application.id, new ApplicationData(application)]));
    return applications.get(applicationId);
  };
}

/** The write operations' answers (the `result` of the success body), by operationId. */
export function mockWrites(seedFile: string | URL): Record<string, Write> {
  const data = seedData(seedFile);
  // The document's token stands for any sealed auth: the mock holds no key, and a test
  // comparing answers needs the same value on every run.
  const sealedToken = examples.EmailSave.result.auth;
  return {
    updateSmsProvider: ({ path, body, caller }) => {
      const id = String(path.id);
      const seeded = data(caller.applicationId)?.smsProviders ?? [];
      const providers: SmsProvider[] = seeded.some((provider) => provider.id === id)
        ? seeded
        : [{ ...(structuredClone(examples.SmsProviderUpdate.result) as unknown as SmsProvider), id }];
      return updateProvider(providers, id, (body ?? {}) as SmsProviderUpdate).updated;
    },
    saveEmailTransport: ({ body, caller }) => {
      const application = data(caller.applicationId);
      const saved = saveTransport(application?.emailTransport, body as EmailSettingsSave, {
        ...(application?.caller ?? { applicationId: caller.applicationId, organizationId: examples.EmailSave.result.organization_id }),
        now: new Date(),
        newId: () => examples.EmailSave.result.id,
        seal: () => sealedToken,
        open: openAuth,
      });
      return { ...saved, auth: sealedToken };
    },
    createNotification: ({ body, caller }) => {
      // Receivers and groups are checked against the seed's users, as the server checks them.
      const audience = data(caller.applicationId) ?? { canReceive: () => true, hasGroup: () => true };
      return createNotification(body as NotificationCreate, audience, new Date(), examples.NotificationCreate.result.id);
    },
  };
}
