// updateSmsProvider (PUT /sms/providers/{id}) on every store (test/support/stores.ts): empty
// body no-op, UP/DOWN by one place (no-op at the ends), positions 1..n without gap, the
// single default and its 409, arrays replaced whole, a property test of random update
// sequences against a model, and 400 updates at once leaving positions 1..n and one default
// with no lost rename. Across processes: test/postgres/multi-process.test.ts.
import fc from "fast-check";
import { expect, it } from "vitest";
import { ApiProblem } from "../../server/problems.js";
import type { Seed } from "../../server/seed/types.js";
import type { SmsProvider } from "../../server/domain/index.js";
import { loadSeed } from "../../server/seed/load.js";
import { callerA, problemOf, seedWithProviders, setupOn } from "../server/operations/harness.js";
import { forEachStore } from "../support/stores.js";

const primary = "sms_2c7e9b4f1a6d";
const backup = "sms_9e4a1d7c3b2f";
const demoSeed = loadSeed();

const order = (providers: SmsProvider[]) => providers.map((p) => p.id);

function expectWellFormed(providers: SmsProvider[]) {
  expect(providers.map((p) => p.sort)).toEqual(providers.map((_, i) => i + 1));
  expect(providers.filter((p) => p.is_default)).toHaveLength(1);
}

forEachStore("updateSmsProvider", (stores) => {
  const setup = async (seed: Seed = demoSeed) => setupOn(await stores.fresh(seed));
  it("an empty body changes nothing", async () => {
    const { call, store } = await setup();
    const before = structuredClone(await store.smsProviders(callerA.applicationId));
    const body = await call("updateSmsProvider", { path: { id: backup }, body: {} });
    expect(body).toEqual({ type: "api.application.sms.provider.update", result: before[1] });
    expect(await store.smsProviders(callerA.applicationId)).toEqual(before);
  });

  it("UP moves one place towards 1 and renumbers the neighbour", async () => {
    const { call, store } = await setup(seedWithProviders(4));
    const body = await call("updateSmsProvider", { path: { id: "sms_p3" }, body: { sort: "UP" } });
    expect(body.result.sort).toBe(2);
    expect(order(await store.smsProviders(callerA.applicationId))).toEqual(["sms_p1", "sms_p3", "sms_p2", "sms_p4"]);
    expectWellFormed(await store.smsProviders(callerA.applicationId));
  });

  it("DOWN moves one place away from 1", async () => {
    const { call, store } = await setup(seedWithProviders(4));
    const body = await call("updateSmsProvider", { path: { id: "sms_p2" }, body: { sort: "DOWN" } });
    expect(body.result.sort).toBe(3);
    expect(order(await store.smsProviders(callerA.applicationId))).toEqual(["sms_p1", "sms_p3", "sms_p2", "sms_p4"]);
  });

  it("UP at position 1 and DOWN at position n are no-ops", async () => {
    const { call, store } = await setup(seedWithProviders(3));
    expect((await call("updateSmsProvider", { path: { id: "sms_p1" }, body: { sort: "UP" } })).result.sort).toBe(1);
    expect((await call("updateSmsProvider", { path: { id: "sms_p3" }, body: { sort: "DOWN" } })).result.sort).toBe(3);
    expect(order(await store.smsProviders(callerA.applicationId))).toEqual(["sms_p1", "sms_p2", "sms_p3"]);
  });

  it("is_default: true makes it the only default", async () => {
    const { call, store } = await setup();
    const body = await call("updateSmsProvider", { path: { id: backup }, body: { is_default: true } });
    expect(body.result.is_default).toBe(true);
    const providers = await store.smsProviders(callerA.applicationId);
    expect(providers.filter((p) => p.is_default).map((p) => p.id)).toEqual([backup]);
  });

  it("is_default: false on the current default is 409 and changes nothing", async () => {
    const { call, store } = await setup();
    const before = structuredClone(await store.smsProviders(callerA.applicationId));
    const problem = await problemOf(() => call("updateSmsProvider", { path: { id: primary }, body: { is_default: false, name: "Renamed" } }), "conflict");
    expect(problem.status).toBe(409);
    expect(await store.smsProviders(callerA.applicationId)).toEqual(before);
  });

  it("is_default: false on a non-default is a no-op", async () => {
    const { call, store } = await setup();
    const before = structuredClone(await store.smsProviders(callerA.applicationId));
    const body = await call("updateSmsProvider", { path: { id: backup }, body: { is_default: false } });
    expect(body.result).toEqual(before[1]);
    expect(await store.smsProviders(callerA.applicationId)).toEqual(before);
  });

  it("arrays replace the stored arrays whole; other fields are set as given", async () => {
    const { call, store } = await setup();
    const before = structuredClone((await store.smsProviders(callerA.applicationId))[0]!);
    expect(before.id).toBe(primary);
    // Each value differs from the stored one, the arrays from the stored arrays and from [].
    const changes = {
      countries: ["FR"],
      patterns: ["+33", "+590"],
      phone_types: ["LANDLINE" as const],
      name: "Renamed",
      is_active: false,
      log_messages: "DISABLED" as const,
    };
    for (const [field, value] of Object.entries(changes)) expect(before[field as keyof SmsProvider]).not.toEqual(value);
    const body = await call("updateSmsProvider", { path: { id: primary }, body: changes });
    expect(body.result).toEqual({ ...before, ...changes });
    expect((await store.smsProviders(callerA.applicationId))[0]).toEqual({ ...before, ...changes });
  });

  it("an empty array empties a stored array", async () => {
    const { call, store } = await setup();
    const before = structuredClone((await store.smsProviders(callerA.applicationId))[0]!);
    expect(before.patterns).not.toEqual([]);
    await call("updateSmsProvider", { path: { id: primary }, body: { patterns: [] } });
    expect((await store.smsProviders(callerA.applicationId))[0]).toEqual({ ...before, patterns: [] });
  });

  it("the stored provider does not share arrays with the request", async () => {
    const { call, store } = await setup();
    const countries = ["FR"];
    await call("updateSmsProvider", { path: { id: primary }, body: { countries } });
    countries.push("DE");
    expect((await store.smsProviders(callerA.applicationId))[0]!.countries).toEqual(["FR"]);
  });

  it("an unknown provider is 404", async () => {
    const { call } = await setup();
    await problemOf(() => call("updateSmsProvider", { path: { id: "sms_000000000000" }, body: {} }), "not_found");
  });

  // Any sequence of moves, default changes and renames, checked after every step against a
  // model kept by hand (an ordered list of ids, the default id, the names).
  it("any sequence of UP/DOWN/is_default/name updates agrees with a simple model after each step", async () => {
    const update = fc.record(
      {
        pick: fc.nat(),
        sort: fc.constantFrom("UP" as const, "DOWN" as const),
        is_default: fc.boolean(),
        name: fc.constantFrom("Renamed", "Other name"),
      },
      { requiredKeys: ["pick"] },
    );
    // Steps the model refuses (un-defaulting the default) and steps it applies, over the run:
    // each branch below asserts, and both must have been taken.
    const taken = { refused: 0, applied: 0 };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.array(update, { maxLength: 40 }), async (n, updates) => {
        const { call, store } = await setup(seedWithProviders(n));
        const model = {
          order: Array.from({ length: n }, (_, i) => `sms_p${i + 1}`),
          defaultId: "sms_p1",
          names: new Map(Array.from({ length: n }, (_, i) => [`sms_p${i + 1}`, `Provider ${i + 1}`])),
        };
        for (const { pick, ...body } of updates) {
          const id = model.order[pick % n]!;
          const before = structuredClone(await store.smsProviders(callerA.applicationId));
          if (body.is_default === false && id === model.defaultId) {
            await problemOf(() => call("updateSmsProvider", { path: { id }, body }), "conflict");
            expect(await store.smsProviders(callerA.applicationId)).toEqual(before);
            taken.refused++;
            continue;
          }
          const result = (await call("updateSmsProvider", { path: { id }, body })).result;
          if (body.is_default === true) model.defaultId = id;
          if (body.name !== undefined) model.names.set(id, body.name);
          const at = model.order.indexOf(id);
          const to = body.sort === "UP" ? Math.max(at - 1, 0) : body.sort === "DOWN" ? Math.min(at + 1, n - 1) : at;
          [model.order[at], model.order[to]] = [model.order[to]!, model.order[at]!];

          const providers = await store.smsProviders(callerA.applicationId);
          expect(order(providers)).toEqual(model.order);
          expect(providers.map((p) => p.sort)).toEqual(model.order.map((_, i) => i + 1));
          expect(providers.filter((p) => p.is_default).map((p) => p.id)).toEqual([model.defaultId]);
          expect(providers.map((p) => p.name)).toEqual(model.order.map((providerId) => model.names.get(providerId)));
          expect(result).toEqual(providers.find((p) => p.id === id));
          taken.applied++;
        }
      }),
      { seed: 20261122, numRuns: stores.propertyRuns(300) },
    );
    expect(taken.refused).toBeGreaterThan(0);
    expect(taken.applied).toBeGreaterThan(0);
  }, 180_000);

  it("an unknown provider of another application is 404 and changes nothing", async () => {
    const { call, store } = await setup(seedWithProviders(3));
    const other = (await store.applications()).find((a) => a.id !== callerA.applicationId)!;
    await problemOf(
      () => call("updateSmsProvider", { path: { id: "sms_p1" }, body: { sort: "DOWN" }, caller: { applicationId: other.id, organizationId: other.organizationId } }),
      "not_found",
    );
    expect(order(await store.smsProviders(callerA.applicationId))).toEqual(["sms_p1", "sms_p2", "sms_p3"]);
  });

  it("400 updates at once: positions 1..n, one default, every rename kept", async () => {
    const n = 6;
    const { call, store } = await setup(seedWithProviders(n));
    const ids = Array.from({ length: n }, (_, i) => `sms_p${i + 1}`);
    const initial = new Map((await store.smsProviders(callerA.applicationId)).map((provider) => [provider.id, structuredClone(provider)]));
    const requests = Array.from({ length: 400 }, (_, i) => {
      const body = [{ sort: "UP" as const }, { sort: "DOWN" as const }, { is_default: true }, { name: `Name ${i}` }][i % 4]!;
      return { id: ids[(i * 7) % n]!, body };
    });
    const answers = await Promise.all(
      requests.map(({ id, body }) =>
        call("updateSmsProvider", { path: { id }, body }).then(
          () => "ok",
          (error: unknown) => (error instanceof ApiProblem ? error.code : String(error)),
        ),
      ),
    );
    expect(answers.filter((a) => a !== "ok")).toEqual([]);
    const providers = await store.smsProviders(callerA.applicationId);
    expectWellFormed(providers);
    expect(new Set(order(providers))).toEqual(new Set(ids));
    // No lost update: each provider's name is one of the renames sent to it (its own when
    // none was), and nothing else of it changed but its position and default flag.
    for (const [i, provider] of providers.entries()) {
      const renames = requests.filter((r) => r.id === provider.id && "name" in r.body).map((r) => (r.body as { name: string }).name);
      expect(renames.length > 0 ? renames : [initial.get(provider.id)!.name]).toContain(provider.name);
      expect(provider).toEqual({ ...initial.get(provider.id), name: provider.name, sort: i + 1, is_default: provider.is_default });
    }
  }, 60_000);
});
