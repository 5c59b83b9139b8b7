// The in-memory store's guarantees under concurrent HTTP requests: no lost update and no
// interleaving inside one change (server/store/memory.ts says how). Every store method is
// delayed by a random await, so the requests overlap in the handlers and the security
// check; only the change itself runs in one step. The same scenario against a store that
// awaits between reading and writing (as a database without a transaction would) fails,
// which shows the scenario detects interleaving rather than passing by luck.
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { updateProvider } from "../../../server/rules/sms-providers.js";
import type { SmsProvider, Store } from "../../../server/domain/index.js";
import { startServer, type RunningServer } from "../../support/server.js";
import { createStore } from "../../../server/store/memory.js";
import { demo, seedWithProviders } from "../../server/operations/harness.js";

const providerCount = 6;
const last = `sms_p${providerCount}`;
const moves = providerCount - 1;

/** Counts how many store calls are in flight at once, to prove the requests overlapped. */
interface Overlap {
  inFlight: number;
  max: number;
}

const pause = () => sleep(Math.floor(Math.random() * 5));

/** `store` with every method waiting a random few milliseconds before it runs. */
function delayed(store: Store, overlap: Overlap): Store {
  return new Proxy(store, {
    get(target, key) {
      const method = target[key as keyof Store] as (...args: unknown[]) => Promise<unknown>;
      return async (...args: unknown[]) => {
        overlap.max = Math.max(overlap.max, ++overlap.inFlight);
        try {
          await pause();
          return await method.apply(target, args);
        } finally {
          overlap.inFlight--;
        }
      };
    },
  });
}

/** A deliberately wrong store: it reads the providers, awaits, then writes what it computed. */
function interleaving(store: Store, applicationId: string, initial: SmsProvider[]): Store {
  let providers = initial;
  return {
    ...store,
    smsProviders: async (id) => (id === applicationId ? [...providers] : store.smsProviders(id)),
    async updateSmsProvider(id, providerId, patch) {
      if (id !== applicationId) return store.updateSmsProvider(id, providerId, patch);
      const read = providers;
      await pause(); // the round trip between the read and the write
      const { providers: next, updated } = updateProvider(read, providerId, patch);
      providers = next;
      return updated;
    },
  };
}

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * Moves the last of `providerCount` providers up `moves` times, all requests at once. Run
 * one after another, the moves take it to position 1 and answer each position from
 * `moves` down to 1 exactly once; a lost update answers a position twice and stops short.
 */
async function concurrentMoves(store: Store): Promise<{ answered: number[]; order: string[]; sorts: number[] }> {
  server = await startServer({ store, rateLimit: false });
  const url = `${server.url}/sms/providers/${last}`;
  const responses = await Promise.all(
    Array.from({ length: moves }, () =>
      fetch(url, {
        method: "PUT",
        headers: { authorization: `Bearer ${demo.a.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ sort: "UP" }),
      }),
    ),
  );
  const answered: number[] = [];
  for (const response of responses) {
    expect(response.status).toBe(200);
    answered.push(((await response.json()) as { result: SmsProvider }).result.sort);
  }
  const providers = await store.smsProviders(demo.a.applicationId);
  return { answered: answered.sort((a, b) => a - b), order: providers.map((p) => p.id), sorts: providers.map((p) => p.sort) };
}

const serialOutcome = {
  answered: Array.from({ length: moves }, (_, i) => i + 1),
  order: [last, ...Array.from({ length: providerCount - 1 }, (_, i) => `sms_p${i + 1}`)],
  sorts: Array.from({ length: providerCount }, (_, i) => i + 1),
};

describe("the in-memory store under concurrent requests", () => {
  it("applies every one of overlapping moves, each on the state the one before left", async () => {
    const overlap: Overlap = { inFlight: 0, max: 0 };
    const outcome = await concurrentMoves(delayed(createStore(seedWithProviders(providerCount)), overlap));
    expect(overlap.max, "the store calls overlapped").toBeGreaterThan(1);
    expect(outcome).toEqual(serialOutcome);
  });

  it("keeps every one of overlapping notifications (no lost append)", async () => {
    const overlap: Overlap = { inFlight: 0, max: 0 };
    const store = createStore(seedWithProviders(providerCount));
    server = await startServer({ store: delayed(store, overlap), rateLimit: false });
    const count = 8;
    const created = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const response = await fetch(`${server!.url}/notifications`, {
          method: "POST",
          headers: { "x-api-key": demo.a.apiKey, "x-api-secret": demo.a.apiSecret, "content-type": "application/json" },
          body: JSON.stringify({ type: "SIMPLE", title: `concurrent ${i}`, content: "A notice", broadcast: true }),
        });
        expect(response.status).toBe(200);
        return ((await response.json()) as { result: { id: string } }).result.id;
      }),
    );
    expect(overlap.max, "the store calls overlapped").toBeGreaterThan(1);
    const stored = (await store.notifications(demo.a.applicationId)).map((n) => n.id);
    expect(new Set(created).size).toBe(count);
    expect([...stored].sort()).toEqual([...created].sort());
  });

  it("the same moves against a store that awaits between read and write lose updates", async () => {
    const store = createStore(seedWithProviders(providerCount));
    const initial = await store.smsProviders(demo.a.applicationId);
    const outcome = await concurrentMoves(interleaving(store, demo.a.applicationId, initial));
    expect(outcome).not.toEqual(serialOutcome);
    // Every request read the same list, so each answered the first move's position.
    expect(new Set(outcome.answered).size).toBeLessThan(moves);
  });
});
