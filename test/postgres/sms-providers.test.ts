// PUT /sms/providers/{id} on PostgreSQL: the in-memory store's property test over random
// update sequences, and what only a shared database can show: many updates at once on
// several connections leave positions 1..n and exactly one default, with no lost update.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiProblem } from "../../server/problems.js";
import type { SmsProvider } from "../../server/seed/types.js";
import { callerA, problemOf, seedWithProviders } from "../server/operations/harness.js";
import { unavailable, useDatabase } from "./database.js";

const app = callerA.applicationId;
const order = (providers: SmsProvider[]) => providers.map((p) => p.id);

describe.skipIf(unavailable !== undefined)("updateSmsProvider on PostgreSQL", () => {
  const db = useDatabase({ max: 8 });

  it("is_default: false on the current default is 409 and changes nothing", async () => {
    await db.reset(seedWithProviders(3));
    const before = structuredClone(await db.store.smsProviders(app));
    await problemOf(() => db.store.updateSmsProvider(app, "sms_p1", { is_default: false, name: "Renamed" }), "conflict");
    expect(await db.store.smsProviders(app)).toEqual(before);
  });

  it("an unknown provider, or one of another application, is 404", async () => {
    await db.reset(seedWithProviders(3));
    await problemOf(() => db.store.updateSmsProvider(app, "sms_000000000000", {}), "not_found");
    const other = (await db.store.applications()).find((a) => a.id !== app)!.id;
    await problemOf(() => db.store.updateSmsProvider(other, "sms_p1", { sort: "DOWN" }), "not_found");
    expect(order(await db.store.smsProviders(app))).toEqual(["sms_p1", "sms_p2", "sms_p3"]);
  });

  // The in-memory store's property (test/server/operations/sms-providers.test.ts), step by
  // step against the same hand-kept model; fewer runs, as each step is a transaction.
  it("any sequence of UP/DOWN/is_default/name updates agrees with a simple model after each step", async () => {
    const update = fc.record(
      { pick: fc.nat(), sort: fc.constantFrom("UP" as const, "DOWN" as const), is_default: fc.boolean(), name: fc.constantFrom("Renamed", "Other name") },
      { requiredKeys: ["pick"] },
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.array(update, { maxLength: 25 }), async (n, updates) => {
        await db.reset(seedWithProviders(n));
        const model = {
          order: Array.from({ length: n }, (_, i) => `sms_p${i + 1}`),
          defaultId: "sms_p1",
          names: new Map(Array.from({ length: n }, (_, i) => [`sms_p${i + 1}`, `Provider ${i + 1}`])),
        };
        for (const { pick, ...body } of updates) {
          const id = model.order[pick % n]!;
          if (body.is_default === false && id === model.defaultId) {
            const before = await db.store.smsProviders(app);
            await problemOf(() => db.store.updateSmsProvider(app, id, body), "conflict");
            expect(await db.store.smsProviders(app)).toEqual(before);
            continue;
          }
          const result = await db.store.updateSmsProvider(app, id, body);
          if (body.is_default === true) model.defaultId = id;
          if (body.name !== undefined) model.names.set(id, body.name);
          const at = model.order.indexOf(id);
          const to = body.sort === "UP" ? Math.max(at - 1, 0) : body.sort === "DOWN" ? Math.min(at + 1, n - 1) : at;
          [model.order[at], model.order[to]] = [model.order[to]!, model.order[at]!];

          const providers = await db.store.smsProviders(app);
          expect(order(providers)).toEqual(model.order);
          expect(providers.map((p) => p.sort)).toEqual(model.order.map((_, i) => i + 1));
          expect(providers.filter((p) => p.is_default).map((p) => p.id)).toEqual([model.defaultId]);
          expect(providers.map((p) => p.name)).toEqual(model.order.map((providerId) => model.names.get(providerId)));
          expect(result).toEqual(providers.find((p) => p.id === id));
        }
      }),
      { seed: 20261122, numRuns: 60 },
    );
  }, 120_000);

  it("400 concurrent updates on 8 connections: positions 1..n, one default, every rename kept", async () => {
    const n = 6;
    await db.reset(seedWithProviders(n));
    const ids = Array.from({ length: n }, (_, i) => `sms_p${i + 1}`);
    const requests = Array.from({ length: 400 }, (_, i) => {
      const id = ids[(i * 7) % n]!;
      const body = [{ sort: "UP" as const }, { sort: "DOWN" as const }, { is_default: true }, { name: `Name ${i}` }][i % 4]!;
      return { id, body, i };
    });
    const answers = await Promise.all(
      requests.map(({ id, body }) => db.store.updateSmsProvider(app, id, body).then(() => "ok", (error) => (error instanceof ApiProblem ? error.code : String(error)))),
    );
    expect(answers.filter((a) => a !== "ok")).toEqual([]);
    const providers = await db.store.smsProviders(app);
    expect(providers.map((p) => p.sort)).toEqual(ids.map((_, i) => i + 1));
    expect(providers.filter((p) => p.is_default)).toHaveLength(1);
    expect(new Set(order(providers))).toEqual(new Set(ids));
    // No lost update: each provider's name is one of the renames sent to it (the last
    // committed one), never the seed's name when a rename reached it.
    for (const provider of providers) {
      const renames = requests.filter((r) => r.id === provider.id && "name" in r.body).map((r) => (r.body as { name: string }).name);
      if (renames.length > 0) expect(renames).toContain(provider.name);
    }
  }, 60_000);
});
