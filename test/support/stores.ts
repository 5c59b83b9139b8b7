// The stores every store-level test runs against, from one definition: the in-memory store
// and the PostgreSQL store (a throwaway cluster per test file; skipped with the reason when
// PostgreSQL cannot run here). `forEachStore` registers a test file's describe once per store.
import { describe } from "vitest";
import type { Seed } from "../../server/seed/types.js";
import { createStore } from "../../server/store/memory.js";
import type { Store } from "../../server/domain/index.js";
import { unavailable, useDatabase } from "../postgres/database.js";

export interface StoreUnderTest {
  name: "in-memory" | "PostgreSQL";
  /** Why this store cannot run here, or undefined. */
  skipped: string | undefined;
  /** A store holding exactly `seed` (the PostgreSQL one is reloaded in place). */
  fresh(seed: Seed): Promise<Store>;
  /** How many runs a property test affords (each PostgreSQL step is a transaction). */
  propertyRuns(inMemory: number): number;
}

/** Registers `define` in one describe per store, named `title (store)`. */
export function forEachStore(title: string, define: (store: StoreUnderTest) => void): void {
  const db = useDatabase();
  const stores: StoreUnderTest[] = [
    { name: "in-memory", skipped: undefined, fresh: async (seed) => createStore(seed), propertyRuns: (n) => n },
    {
      name: "PostgreSQL",
      skipped: unavailable,
      async fresh(seed) {
        await db.reset(seed);
        return db.store;
      },
      propertyRuns: (n) => Math.max(10, Math.round(n / 5)),
    },
  ];
  for (const store of stores) {
    const name = store.skipped === undefined ? `${title} (${store.name})` : `${title} (${store.name}: skipped, ${store.skipped})`;
    describe.skipIf(store.skipped !== undefined)(name, () => define(store));
  }
}
