// The document's own edge values on both stores: valid requests of every operation, drawn
// from the document with values at its edges (integer bounds, shortest and longest strings,
// 10-digit group ids past 2^31, free text with U+0000, lone surrogates, U+FFFF), go to a
// reference server on the in-memory store and one on PostgreSQL, loaded with the same seed,
// in the same order. Both must give the same status and body (generated ids and times aside),
// never a 500; afterwards both must hold the same records; and no log line holds body text
// or a database error's text.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperationId } from "../../generated/operations.js";
import { startServer, type RunningServer } from "../../server/reference-server.js";
import { loadSeed } from "../../server/seed/load.js";
import { createStore } from "../../server/store/memory.js";
import type { Store } from "../../server/domain/index.js";
import { appA, appB, recordsOfA } from "../support/demo.js";
import { captureLogs } from "../support/logs.js";
import { credentialsFor, operationIds } from "../support/requests.js";
import { unavailable, useDatabase } from "../postgres/database.js";
import { validRequest, type FuzzRequest } from "../fuzz/requests.js";
import { send, type Answer } from "../fuzz/send.js";

const generatedId = /^(ntf|eml)_[0-9a-f]{12}$/;
const sealed = /^enc:v1:/;
/** Times the servers take from their clock: ISO strings within ten minutes of now. */
const isNow = (text: string) => /^\d{4}-\d\d-\d\dT/.test(text) && Math.abs(Date.parse(text) - Date.now()) < 600_000;

/** An answer or record with what each store makes up on its own (ids, clock times, sealed tokens) masked. */
function masked(value: unknown): unknown {
  if (typeof value === "string") return generatedId.test(value) ? "<generated id>" : sealed.test(value) ? "<sealed>" : isNow(value) ? "<now>" : value;
  if (Array.isArray(value)) return value.map(masked);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, masked(item)]));
  return value;
}
const answerOf = (answer: Answer) => ({ status: answer.status, body: masked(answer.body) });

/** A request as the fuzz generator makes them, for the values the attack found. */
function request(operationId: OperationId, method: string, path: string, query: [string, string][], body?: unknown): FuzzRequest {
  return {
    operationId,
    kind: "edge",
    method,
    path,
    query,
    headers: { ...credentialsFor(operationId, appA), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body,
  };
}
const transport = (fromName: string) => ({
  type: "SENDGRID",
  auth: { api_key: "SG.edge-values" },
  email_from: "no-reply@acme-shop.example",
  email_admin: "admin@acme-shop.example",
  from_name: fromName,
});
const providerId = recordsOfA.smsProviders[0]!;
const provider = `/sms/providers/${providerId}`;
const a = appA.applicationId;

/** A write the attack sent, and what the store must hold after it (read back through the store). */
interface KnownWrite {
  r: FuzzRequest;
  readBack: (store: Store) => Promise<unknown>;
  expected: unknown;
}
const fromName = async (store: Store) => (await store.emailTransport(a))?.from_name;
const providerName = async (store: Store) => (await store.smsProviders(a)).find((p) => p.id === providerId)?.name;
const lastNotification = async (store: Store) => {
  const { title, content } = (await store.notifications(a)).at(-1)!;
  return { title, content };
};
/** The reads the attack sent: nothing to read back, the answer is all. */
const knownReads: FuzzRequest[] = [
  request("findEncryptionReports", "GET", "/reports/encryption", [["group", "2147483648"]]),
  request("findEncryptionReports", "GET", "/reports/encryption", [["group", "9999999999"]]),
  request("findEncryptionReports", "GET", "/reports/encryption", [["region", "M\u0000D"]]),
  request("findEncryptionReports", "GET", "/reports/encryption", [["device_version", "1\u00004"]]),
];
const knownWrites: KnownWrite[] = [
  { r: request("saveEmailTransport", "POST", "/custom/emails", [], transport("Acme\u0000Shop")), readBack: fromName, expected: "Acme\u0000Shop" },
  { r: request("saveEmailTransport", "POST", "/custom/emails", [], transport("Acme\ud800Shop")), readBack: fromName, expected: "Acme\ud800Shop" },
  { r: request("saveEmailTransport", "POST", "/custom/emails", [], transport("\uffff0\uffffu\uffff")), readBack: fromName, expected: "\uffff0\uffffu\uffff" },
  { r: request("updateSmsProvider", "PUT", provider, [], { name: "Backup\u0000gateway" }), readBack: providerName, expected: "Backup\u0000gateway" },
  { r: request("updateSmsProvider", "PUT", provider, [], { name: "Backup\udc00gateway" }), readBack: providerName, expected: "Backup\udc00gateway" },
  {
    r: request("createNotification", "POST", "/notifications", [], { type: "SIMPLE", title: "Hi\u0000", content: "\ud83d", broadcast: true }),
    readBack: lastNotification,
    expected: { title: "Hi\u0000", content: "\ud83d" },
  },
];

describe.skipIf(unavailable !== undefined)("the document's edge values on the in-memory and PostgreSQL stores", () => {
  const db = useDatabase();
  const logs = captureLogs("info");
  let memory: { server: RunningServer; store: Store };
  let postgres: { server: RunningServer; store: Store };
  const sentBodies: string[] = [];

  beforeAll(async () => {
    const seed = loadSeed();
    await db.reset(seed);
    const store = createStore(seed);
    const options = { rateLimit: false, failedAuthLimit: false, logger: logs.logger } as const;
    memory = { server: await startServer({ ...options, store }), store };
    postgres = { server: await startServer({ ...options, store: db.store }), store: db.store };
  });
  afterAll(async () => {
    await memory?.server.close();
    await postgres?.server.close();
  });

  const both = async (r: FuzzRequest) => {
    if (r.body !== undefined) sentBodies.push(JSON.stringify(r.body));
    const inMemory = await send(memory.server.url, r);
    const onPostgres = await send(postgres.server.url, r);
    return { inMemory, onPostgres };
  };

  it("the values the attack found: 200 and the same answer from both, stored and read back exactly", async () => {
    const name = (r: FuzzRequest) => `${r.method} ${r.path} ${JSON.stringify(r.query)} ${JSON.stringify(r.body)}`;
    for (const r of knownReads) {
      const { inMemory, onPostgres } = await both(r);
      expect(onPostgres.status, name(r)).toBe(200);
      expect(answerOf(onPostgres), name(r)).toEqual(answerOf(inMemory));
    }
    for (const { r, readBack, expected } of knownWrites) {
      const { inMemory, onPostgres } = await both(r);
      expect(onPostgres.status, name(r)).toBe(200);
      expect(answerOf(onPostgres), name(r)).toEqual(answerOf(inMemory));
      expect([await readBack(postgres.store), await readBack(memory.store)], name(r)).toEqual([expected, expected]);
    }
  }, 60_000);

  it("valid requests of every operation at the document's edges: the same answer from both, none a 500", async () => {
    const requests = fc.oneof(...operationIds.map((id) => validRequest(id, { edges: true })));
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(requests, async (r) => {
        const { inMemory, onPostgres } = await both(r);
        sent++;
        expect(onPostgres.status).not.toBe(500);
        expect(answerOf(onPostgres)).toEqual(answerOf(inMemory));
      }),
      { numRuns: 300, endOnFailure: true },
    );
    expect(sent).toBe(300);
  }, 300_000);

  it("both stores hold the same records afterwards", async () => {
    for (const app of [appA, appB]) {
      const id = app.applicationId;
      const [m, p] = [memory.store, postgres.store];
      expect(masked(await p.smsProviders(id))).toEqual(masked(await m.smsProviders(id)));
      expect(masked(await p.emailTransport(id))).toEqual(masked(await m.emailTransport(id)));
      expect(masked(await p.notifications(id))).toEqual(masked(await m.notifications(id)));
    }
  });

  it("PostgreSQL's own JSON functions read every stored body (->> and ::jsonb)", async () => {
    for (const table of ["sms_providers", "notifications", "email_transports", "widgets", "webhooks"]) {
      const { rows } = await db.pool.query<{ n: number; read: number }>(
        `SELECT count(*)::int AS n, count((SELECT count(*) FROM jsonb_each_text(body::jsonb)))::int AS read FROM ${table}`,
      );
      expect(rows[0]!.read, table).toBe(rows[0]!.n);
    }
  });

  it("no 500, and no log line holds body text", () => {
    const errors = logs.records.filter((record) => (record.level as number) >= 50);
    expect(errors).toEqual([]);
    // Body values long enough not to be a word a log line holds anyway ("length"), the
    // attack's e-mail addresses among them.
    const texts = sentBodies
      .flatMap((body) => Object.values(JSON.parse(body) as Record<string, unknown>))
      .filter((v): v is string => typeof v === "string" && v.length >= 12);
    expect(texts).toContain("admin@acme-shop.example");
    expect(texts.filter((text) => logs.lines.some((line) => line.includes(text) || line.includes(JSON.stringify(text).slice(1, -1))))).toEqual([]);
  });
});
