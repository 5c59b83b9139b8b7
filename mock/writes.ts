// What the mock's writes answer: what the reference server would answer that request on its
// freshly seeded demo data, computed by the server's own rules (server/rules/) over a copy of
// the seed's records and then forgotten, so the mock stays stateless. The seed is the one
// source of the records a write starts from; the document's write examples are the server's
// answers to the documented requests on it (test/mock/writes.test.ts checks both). An id the
// seed does not have starts from the documented example under the requested id, so any
// well-formed id is still answered, with the request applied. No Node API: the MSW handlers
// answer writes with these too, in browsers as well.
import { examples } from "../generated/examples.js";
import type { EmailSettingsSave, EmailTransport, NotificationCreate, SmsProvider, SmsProviderUpdate } from "../server/domain/index.js";
import { saveTransport, storedAuth, transportRecord } from "../server/rules/email-transport.js";
import { createNotification, seedAudience, type Audience } from "../server/rules/notifications.js";
import { updateProvider } from "../server/rules/sms-providers.js";
import type { Seed } from "../server/seed/types.js";

/** What a write handler receives from the contract layer. */
export interface WriteInput {
  path: Record<string, unknown>;
  body?: unknown;
  caller: { applicationId: string };
}

/** A write's answer: the `result` of its success body, or an ApiProblem thrown (the server's 400 or 409). */
export type Write = (input: WriteInput) => unknown;

/**
 * The document's token stands for any sealed auth: the mock holds no key (nothing is sealed
 * or stored), and a test comparing answers needs the same value on every run.
 */
const sealedToken = examples.EmailSave.result.auth;

/** One application of the seed as the server's store holds it after seeding, as far as the writes read it. */
interface Seeded {
  owner: { applicationId: string; organizationId: string };
  providers: SmsProvider[];
  transport: EmailTransport | undefined;
  /** The plain auth behind the seeded transport's token (what the server would open). */
  auth: unknown;
  audience: Audience;
}

/** Per application of the seed, its records as the server's store holds them after seeding (made on the first write). */
function seedData(seed: Seed): (applicationId: string) => Seeded | undefined {
  let applications: Map<string, Seeded> | undefined;
  return (applicationId) => {
    applications ??= new Map(
      seed.applications.map((application) => {
        const transport = application.email_transport;
        const owner = { applicationId: application.id, organizationId: application.organization_id };
        const seeded: Seeded = {
          owner,
          providers: [...application.sms_providers].sort((a, b) => a.sort - b.sort),
          transport: transport
            ? transportRecord(
                transport,
                storedAuth(transport.auth, () => sealedToken),
                owner,
              )
            : undefined,
          auth: transport?.auth,
          audience: seedAudience(application.users, application.activities),
        };
        return [application.id, seeded];
      }),
    );
    return applications.get(applicationId);
  };
}

/** The write operations' answers (the `result` of the success body), by operationId, from a seed's records. */
export function mockWrites(seed: Seed): Record<string, Write> {
  const data = seedData(seed);
  return {
    updateSmsProvider: ({ path, body, caller }) => {
      const id = String(path.id);
      const seeded = data(caller.applicationId)?.providers ?? [];
      const providers: SmsProvider[] = seeded.some((provider) => provider.id === id)
        ? seeded
        : [{ ...(structuredClone(examples.SmsProviderUpdate.result) as unknown as SmsProvider), id }];
      return updateProvider(providers, id, (body ?? {}) as SmsProviderUpdate).updated;
    },
    saveEmailTransport: ({ body, caller }) => {
      const seeded = data(caller.applicationId);
      return saveTransport(seeded?.transport, body as EmailSettingsSave, {
        applicationId: caller.applicationId,
        organizationId: seeded?.owner.organizationId ?? examples.EmailSave.result.organization_id,
        now: new Date(),
        newId: () => examples.EmailSave.result.id,
        seal: () => sealedToken,
        open: () => seeded?.auth,
      });
    },
    createNotification: ({ body, caller }) => {
      // Receivers and groups are checked against the seed's users, as the server checks them.
      const audience = data(caller.applicationId)?.audience ?? { canReceive: () => true, hasGroup: () => true };
      return createNotification(body as NotificationCreate, audience, new Date(), examples.NotificationCreate.result.id);
    },
  };
}
