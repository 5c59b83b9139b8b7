// GET /reports/encryption on PostgreSQL answers exactly what the in-memory report table
// answers (records, order and exact total_count) for every filter alone and combined,
// over generated reports bulk-loaded with COPY through addReports.
import { describe, expect, it } from "vitest";
import { epochMs, generateReports } from "../../../bench/scale/generate.js";
import { createStore } from "../../../server/store/memory.js";
import { createPostgresStore } from "../../../server/store/postgres/index.js";
import { reportQuery } from "../../../server/store/postgres/reports.js";
import { loadSeed } from "../../../server/seed/load.js";
import type { ReportFilters } from "../../../server/domain/index.js";
import { callerA, callerB } from "../../server/operations/harness.js";
import { unavailable } from "../../postgres/database.js";
import { reportStores } from "./report-stores.js";

const seed = loadSeed();
const reports = generateReports({ count: 3000, applicationId: callerA.applicationId, organizationId: callerA.organizationId, accounts: 40 });
// Some reports belong to the seed's users, so the group filter (the account's groups) matches.
const usersOfA = seed.applications.find((a) => a.id === callerA.applicationId)!.users;
reports.slice(0, 300).forEach((report, i) => (report.account_id = usersOfA[i % usersOfA.length]!.id));
const sample = reports[123]!;
const seconds = (ms: number) => Math.floor(ms / 1000);
const dayS = 86_400;

const cases: [string, ReportFilters, number?][] = [
  ["no filter", {}],
  ["account", { account: sample.account_id }],
  ["email in another case", { email: sample.user.email.toUpperCase() }],
  ["country", { country: sample.country.code }],
  ["region", { region: sample.region.code }],
  ["device_type", { device_type: sample.device.type }],
  ["device_version", { device_version: sample.device.version }],
  ["status", { status: sample.status }],
  ["ip (source or device)", { ip: sample.ip_device }],
  ["start_date only", { start_date: seconds(epochMs) + 300 * dayS }],
  ["end_date only (inclusive second)", { end_date: seconds(Date.parse(sample.created_at)) }],
  ["a month", { start_date: seconds(epochMs) + 100 * dayS, end_date: seconds(epochMs) + 130 * dayS }],
  [
    "country+status+month, page 2",
    { country: sample.country.code, status: sample.status, start_date: seconds(epochMs) + 60 * dayS, end_date: seconds(epochMs) + 400 * dayS },
    2,
  ],
  ["country+device_type, page 3", { country: sample.country.code, device_type: sample.device.type }, 3],
  [
    "region+status, partial days at both ends",
    { region: sample.region.code, status: sample.status, start_date: seconds(epochMs) + 10 * dayS + 3 * 3600, end_date: seconds(epochMs) + 300 * dayS + 5 * 3600 },
  ],
  ["within one day", { start_date: seconds(epochMs) + 50 * dayS + 3600, end_date: seconds(epochMs) + 50 * dayS + 20 * 3600 }],
  ["nothing matches", { country: "ZZ" }],
  ["crossed dates (400)", { start_date: 2_000_000_000, end_date: 1_000_000_000 }],
];

describe.skipIf(unavailable !== undefined)("encryption reports on PostgreSQL", () => {
  const { db, memory } = reportStores(seed, reports);

  it.each(cases)("%s: the same page and meta as in memory", async (_name, filters, page = 1) => {
    const paging = { limit: 20, page };
    const run = async (find: () => unknown) => {
      try {
        return await find();
      } catch (error) {
        return { problem: (error as Error).message };
      }
    };
    const expected = await run(() => memory.encryptionReports(callerA.applicationId, filters, paging));
    expect(await run(() => db.store.encryptionReports(callerA.applicationId, filters, paging))).toEqual(expected);
  });

  it("a group filter matches the reports of the group's accounts (07 and 7 alike)", async () => {
    const group = seed.applications.find((a) => a.id === callerA.applicationId)!.users.find((u) => u.groups.length > 0)?.groups[0];
    expect(group, "a user of the demo seed in a group").toBeDefined();
    for (const value of [String(group), `0${group}`]) {
      const paging = { limit: 100, page: 1 };
      expect((await db.store.encryptionReports(callerA.applicationId, { group: value }, paging)).meta.total_count).toBeGreaterThan(0);
      expect(await db.store.encryptionReports(callerA.applicationId, { group: value }, paging)).toEqual(
        await memory.encryptionReports(callerA.applicationId, { group: value }, paging),
      );
    }
  });

  it("the broad filters count from the per-day counts, the selective ones from the rows", () => {
    const countOf = (filters: ReportFilters) => reportQuery(callerA.applicationId, filters, { limit: 10, page: 1 }).count.text;
    for (const filters of [
      {},
      { country: "ES", device_type: "IOS" },
      { status: "NEW", start_date: seconds(epochMs) + 3600, end_date: seconds(epochMs) + 90 * dayS },
    ] as ReportFilters[]) {
      expect(countOf(filters)).toContain("report_day_counts");
    }
    for (const filters of [{ email: "a@b.example" }, { country: "ES", account: "usr_1" }, { start_date: seconds(epochMs), end_date: seconds(epochMs) + 3600 }]) {
      expect(countOf(filters)).not.toContain("report_day_counts");
    }
  });

  it("a second, large load keeps every count exact and every index (dropped and rebuilt around COPY)", async () => {
    const more = generateReports({ count: 700, seed: 7, applicationId: callerA.applicationId, organizationId: callerA.organizationId, accounts: 40 });
    more.forEach((report) => (report.id = report.id.replace("rep_", "rep_z")));
    const again = createStore(seed);
    await again.addReports(callerA.applicationId, [...reports, ...more]);
    const indexes = async () => (await db.pool.query("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'encryption_reports' ORDER BY indexname")).rows;
    const before = await indexes();
    const large = createPostgresStore({ connectionString: db.url, max: 2, rebuildIndexesFrom: 500 });
    try {
      await large.addReports(callerA.applicationId, more);
    } finally {
      await large.close();
    }
    expect(await indexes()).toEqual(before);
    for (const filters of [
      {},
      { country: sample.country.code },
      { status: sample.status, start_date: seconds(epochMs) + 30 * dayS + 7, end_date: seconds(epochMs) + 200 * dayS },
      { email: sample.user.email },
    ] as ReportFilters[]) {
      const paging = { limit: 5, page: 2 };
      expect(await db.store.encryptionReports(callerA.applicationId, filters, paging)).toEqual(await again.encryptionReports(callerA.applicationId, filters, paging));
    }
  });

  it("another application sees none of A's reports", async () => {
    const page = await db.store.encryptionReports(callerB.applicationId, { country: sample.country.code }, { limit: 10, page: 1 });
    expect(page.result.map((r) => r.application_id)).not.toContain(callerA.applicationId);
    expect(page.meta.total_count).toBe(
      (await memory.encryptionReports(callerB.applicationId, { country: sample.country.code }, { limit: 10, page: 1 })).meta.total_count,
    );
  });
});
