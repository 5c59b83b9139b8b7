// The same reports of application A in a PostgreSQL store and an in-memory one, for suites
// that hold the database's answers to the in-memory table's: one set-up, so both suites
// compare against the same thing.
import { beforeAll } from "vitest";
import type { EncryptionReport } from "../../../server/domain/index.js";
import type { Seed } from "../../../server/seed/types.js";
import { createStore } from "../../../server/store/memory.js";
import { callerA } from "../../server/operations/harness.js";
import { unavailable, useDatabase } from "../../postgres/database.js";

/** Call inside the suite's describe: the database is reset to `seed` plus `reports` before its tests. */
export function reportStores(seed: Seed, reports: readonly EncryptionReport[]) {
  const db = useDatabase();
  const memory = createStore(seed);
  memory.addReports(callerA.applicationId, reports);
  beforeAll(async () => {
    if (unavailable !== undefined) return;
    await db.reset(seed);
    await db.store.addReports(callerA.applicationId, reports);
  });
  return { db, memory };
}
