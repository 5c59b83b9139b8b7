// Three processes on one database: 600 concurrent provider updates (UP, DOWN, is_default,
// rename) spread across them leave positions 1..n and exactly one default, every answer
// a documented one; and 30 rate-limit hits on one key from the three count 1..30 once each,
// so a limit is enforced once across processes, not once per process.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { callerA, seedWithProviders } from "../server/operations/harness.js";
import { unavailable, useDatabase } from "./database.js";

const exec = promisify(execFile);
const worker = fileURLToPath(new URL("./worker.ts", import.meta.url));

describe.skipIf(unavailable !== undefined)("three processes on one database", () => {
  const db = useDatabase();

  it("600 concurrent updates across 3 processes keep positions 1..n and one default; one shared limit", async () => {
    const n = 5;
    await db.reset(seedWithProviders(n));
    const runs = await Promise.all(
      [0, 1, 2].map((i) => exec(process.execPath, ["--import", "tsx", worker, db.url, callerA.applicationId, String(i), "200", "10"], { encoding: "utf8" })),
    );
    const results = runs.map(({ stdout }) => JSON.parse(stdout.trim().split("\n").pop()!) as { answers: string[]; counts: number[] });
    const answers = results.flatMap((r) => r.answers);
    expect(answers).toHaveLength(600);
    // Nothing in these requests can be refused: every answer is a success.
    expect(answers.filter((a) => a !== "ok")).toEqual([]);

    const providers = await db.store.smsProviders(callerA.applicationId);
    expect(providers.map((p) => p.sort)).toEqual([1, 2, 3, 4, 5]);
    expect(providers.filter((p) => p.is_default)).toHaveLength(1);
    expect(new Set(providers.map((p) => p.id)).size).toBe(n);
    const rows = (await db.pool.query<{ sort: number; is_default: boolean; body: { sort: number; is_default: boolean } }>(
      "SELECT sort, is_default, body FROM sms_providers WHERE application_id = $1", [callerA.applicationId])).rows;
    for (const row of rows) expect({ sort: row.body.sort, is_default: row.body.is_default }).toEqual({ sort: row.sort, is_default: row.is_default });

    expect(results.flatMap((r) => r.counts).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  }, 120_000);
});
