// The PostgreSQL store against the in-memory store: over the same seed, every read answers
// the same records and meta, every rule the same problem; plus what only a database shows:
// digests and sealed auth at rest, concurrent first saves, and migrations applied once.
// The behaviour both stores share is tested once for both in test/stores/.
import { beforeEach, describe, expect, it } from "vitest";
import { openAuth } from "../../../server/crypto/email-auth.js";
import { sha256 } from "../../../server/crypto/hash.js";
import { migrate, migrations } from "../../../server/store/postgres/migrate.js";
import { createStore } from "../../../server/store/memory.js";
import { loadSeed } from "../../../server/seed/load.js";
import { ApiProblem } from "../../../server/problems.js";
import { callerA, callerB, fixedNow } from "../../server/operations/harness.js";
import { demo, recordsOfA } from "../../support/demo.js";
import { requestExamples } from "../../support/document.js";
import { unavailable, useDatabase } from "../../postgres/database.js";

const demoSeed = loadSeed();
const paging = { limit: 10, page: 1 };

/** The outcome of a call: its value, or the problem it threw (code, detail, errors). */
async function outcome(action: () => unknown): Promise<unknown> {
  try {
    return { value: await action() };
  } catch (error) {
    if (!(error instanceof ApiProblem)) throw error;
    return { problem: { code: error.code, detail: error.detail, errors: error.errors } };
  }
}

describe.skipIf(unavailable !== undefined)("PostgreSQL store", () => {
  const db = useDatabase();
  beforeEach(async () => db.reset(demoSeed));

  describe("migrations", () => {
    it("are recorded by version and applied once", async () => {
      const recorded = (await db.pool.query("SELECT version, name FROM schema_migrations ORDER BY version")).rows;
      expect(recorded).toEqual(migrations().map(({ version, name }) => ({ version, name })));
      expect(await migrate(db.pool)).toEqual([]);
    });
  });

  describe("credentials at rest", () => {
    it("the database holds only SHA-256 digests of keys and secrets", async () => {
      const rows = (await db.pool.query<{ key_digest: Buffer; secret_digest: Buffer }>("SELECT key_digest, secret_digest FROM credentials")).rows;
      expect(rows.map((row) => row.key_digest.toString("hex"))).toContain(sha256(demo.a.apiKey).toString("hex"));
      expect(rows.map((row) => row.secret_digest.toString("hex"))).toContain(sha256(demo.a.apiSecret).toString("hex"));
      const dump = JSON.stringify((await db.pool.query("SELECT * FROM credentials")).rows);
      for (const clear of [demo.a.apiKey, demo.a.apiSecret, demo.b.apiKey, demo.b.apiSecret]) {
        expect(dump).not.toContain(clear);
        expect(dump).not.toContain(Buffer.from(clear).toString("hex"));
      }
    });
  });

  describe("reads answer what the in-memory store answers", () => {
    const memory = () => createStore(demoSeed);
    const a = callerA.applicationId;
    const b = callerB.applicationId;
    const cases: [string, (store: ReturnType<typeof createStore> | typeof db.store) => unknown][] = [
      ["widget", (s) => s.widget(a, recordsOfA.widgets[0]!)],
      ["another application's widget (404)", (s) => s.widget(b, recordsOfA.widgets[0]!)],
      ["user activity", (s) => s.userActivity(a, recordsOfA.users[0]!, paging)],
      ["activity of an unknown user (404)", (s) => s.userActivity(a, "usr_000000000000", paging)],
      ["activity of A's user as B (404)", (s) => s.userActivity(b, recordsOfA.users[0]!, paging)],
      ["activity page 2 of limit 1", (s) => s.userActivity(a, recordsOfA.users[0]!, { limit: 1, page: 2 })],
      ["encryption reports", (s) => s.encryptionReports(a, {}, paging)],
      ["sms providers", (s) => s.smsProviders(a)],
      ["webhooks", (s) => s.webhooks(a, paging)],
      ["webhooks page past the end", (s) => s.webhooks(a, { limit: 10, page: 9 })],
      ["webhook", (s) => s.webhook(a, recordsOfA.webhooks[0]!)],
      ["webhook as B (404)", (s) => s.webhook(b, recordsOfA.webhooks[0]!)],
      ["webhook history", (s) => s.webhookHistory(a, recordsOfA.webhooks[0]!, paging)],
      ["webhook history as B (404)", (s) => s.webhookHistory(b, recordsOfA.webhooks[0]!, paging)],
      ["infinite page (400)", (s) => s.webhooks(a, { limit: 10, page: Infinity })],
    ];
    it.each(cases)("%s", async (_name, read) => {
      expect(await outcome(() => read(db.store))).toEqual(await outcome(() => read(memory())));
    });

    it("the e-mail transport is the sealed record the seed gives", async () => {
      const stored = (await db.store.emailTransport(a))!;
      const { auth, ...rest } = (await createStore(demoSeed).emailTransport(a))!;
      expect(stored).toEqual({ ...rest, auth: expect.stringMatching(/^enc:v1:/) });
      expect(openAuth(stored.auth)).toEqual(openAuth(auth));
    });
  });

  describe("e-mail transport at rest and under concurrent first saves", () => {
    const [[, request]] = requestExamples("saveEmailTransport") as [[string, { auth: Record<string, string>; type: string }]];

    it("saves over the stored one keeping id, created_at and counters; auth only sealed at rest", async () => {
      const before = (await db.store.emailTransport(callerA.applicationId))!;
      const saved = await db.store.saveEmailTransport(callerA.applicationId, request as never, fixedNow);
      expect(saved).toMatchObject({ id: before.id, created_at: before.created_at, send_count: before.send_count, type: request.type });
      expect(openAuth(saved.auth)).toEqual(request.auth);
      const atRest = JSON.stringify((await db.pool.query("SELECT body FROM email_transports")).rows);
      // The long auth values are the secrets; a short one (a region) may well occur elsewhere in the row.
      const secrets = Object.values(request.auth).filter((value) => value.length > 12);
      expect(secrets.length).toBeGreaterThan(0);
      expect(secrets.filter((secret) => atRest.includes(secret))).toEqual([]);
    });

    it("concurrent first saves leave one transport with one id", async () => {
      await db.pool.query("DELETE FROM email_transports");
      const saved = await Promise.all(Array.from({ length: 8 }, () => db.store.saveEmailTransport(callerA.applicationId, request as never, fixedNow)));
      const rows = (await db.pool.query<{ body: { id: string } }>("SELECT body FROM email_transports WHERE application_id = $1", [callerA.applicationId])).rows;
      expect(rows).toHaveLength(1);
      expect(new Set(saved.map((t) => t.id))).toEqual(new Set([rows[0]!.body.id]));
    });
  });
});
