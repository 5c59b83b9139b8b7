// Deep report pages on PostgreSQL are found by seeking through the per-day counts: every
// page found so (with the filters those counts answer, any date range, past the end too) is
// the one the OFFSET query and the in-memory store give, over reports placed on day boundaries,
// with empty days and ties on created_at; and a deep page's plan reads about one day's
// index entries, not the `(page - 1) * limit` entries before it.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { generateReports } from "../../../bench/scale/generate.js";
import { createStore } from "../../../server/store/memory.js";
import { reportPageAndCount, seekFrom, seekPageAndCount } from "../../../server/store/postgres/reports.js";
import { loadSeed } from "../../../server/seed/load.js";
import type { Paging, ReportFilters } from "../../../server/domain/index.js";
import { callerA } from "../../server/operations/harness.js";
import { unavailable, useDatabase } from "../../postgres/database.js";

const seed = loadSeed();
const app = callerA.applicationId;
const dayMs = 86_400_000;
/** Day 0 of the reports (UTC midnight); they cover days 0..39 but for the empty ones. */
const day0 = Date.UTC(2026, 2, 1);
const days = 40;
const emptyDays = new Set([0, 5, 6, 17, 30, 39]);
const filled = Array.from({ length: days }, (_, d) => d).filter((d) => !emptyDays.has(d));

// Times chosen to stress the seek: exactly midnight (the first instant of a day), the last
// millisecond of a day, and runs of equal created_at (ordered by id), the rest spread.
const reports = generateReports({ count: 2400, seed: 11, applicationId: app, organizationId: callerA.organizationId, accounts: 60 });
reports.forEach((report, i) => {
  const day = day0 + filled[(i * 7) % filled.length]! * dayMs;
  const within = i % 10 === 0 ? 0 : i % 10 === 1 ? dayMs - 1 : (i * 7_919_423) % dayMs;
  report.created_at = new Date(i % 6 === 2 ? Date.parse(reports[i - 1]!.created_at) : day + within).toISOString();
});
const sample = reports[5]!;

/** Seconds near the reports: on a day boundary, a second either side, or inside a day. */
const instant = fc
  .tuple(fc.integer({ min: -2, max: days + 1 }), fc.constantFrom(0, 1, -1, 3_600, 43_210, 86_399))
  .map(([day, second]) => Math.floor(day0 / 1000) + day * 86_400 + second);

/** No filter, or up to two of the columns the day counts group by, each with or without dates (either end open). */
const filters: fc.Arbitrary<ReportFilters> = fc
  .tuple(
    fc.subarray(["country", "region", "device_type", "status"] as const, { maxLength: 2 }),
    fc.constantFrom(sample.country.code, "ES", "US", "ZZ"),
    fc.constantFrom("ANDROID", "IOS"),
    fc.constantFrom("NEW", "CONFIRMED", "REVOKED"),
    fc.option(instant),
    fc.option(instant),
  )
  .map(([columns, country, deviceType, status, start, end]) => {
    const values = { country, region: sample.region.code, device_type: deviceType, status };
    const chosen: ReportFilters = Object.fromEntries(columns.map((column) => [column, values[column]]));
    if (start !== null) chosen.start_date = start;
    if (end !== null) chosen.end_date = end;
    return chosen;
  });

const ok = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: Error) => ({ problem: error.message }),
  );

describe.skipIf(unavailable !== undefined)("deep report pages on PostgreSQL", () => {
  const db = useDatabase();
  const memory = createStore(seed);
  memory.addReports(app, reports);

  beforeAll(async () => {
    if (unavailable !== undefined) return;
    await db.reset(seed);
    await db.store.addReports(app, reports);
  });

  const rows = async (statement: { text: string; values: unknown[] }) => (await db.pool.query(statement)).rows[0] as { total: number; result: unknown[] };

  it("the reports stress what they should: midnight, the last millisecond, ties, empty days", () => {
    const times = reports.map((r) => Date.parse(r.created_at));
    expect(times.filter((t) => t % dayMs === 0).length).toBeGreaterThan(100);
    expect(times.filter((t) => t % dayMs === dayMs - 1).length).toBeGreaterThan(100);
    expect(times.length - new Set(times).size).toBeGreaterThan(300);
    for (const d of emptyDays) expect(times.filter((t) => Math.floor((t - day0) / dayMs) === d)).toEqual([]);
  });

  it("every page found by seeking is the OFFSET query's page and the in-memory store's", async () => {
    let sought = 0;
    let pastTheEnd = 0;
    await fc.assert(
      fc.asyncProperty(filters, fc.integer({ min: 10, max: 100 }), fc.integer({ min: 0, max: 1_200 }), async (filters, limit, permille) => {
        const all = await ok(memory.encryptionReports(app, filters, { limit, page: 1 }));
        // A page anywhere from the first to a little past the last, uniformly.
        const pageCount = "value" in all ? all.value.meta.page_count : 1;
        const paging: Paging = { limit, page: 1 + Math.floor((permille / 1000) * pageCount) };
        const expected = await ok(memory.encryptionReports(app, filters, paging));
        expect(await ok(db.store.encryptionReports(app, filters, paging))).toEqual(expected);
        if (!("value" in expected)) return;
        const seek = seekPageAndCount(app, filters, paging);
        if (seek === undefined) return;
        sought++;
        if (expected.value.result.length === 0) pastTheEnd++;
        const offset = await rows(reportPageAndCount(app, filters, paging, "offset"));
        expect(await rows(seek)).toEqual(offset);
        expect(offset).toEqual({ total: expected.value.meta.total_count, result: expected.value.result });
      }),
      { numRuns: 400, seed: 20_261_125 },
    );
    // The property holds for seeks, not only for the filters that fall back to OFFSET.
    expect(sought).toBeGreaterThan(200);
    expect(pastTheEnd).toBeGreaterThan(5);
  }, 120_000);

  it.each([
    ["page 1", {}, { limit: 10, page: 1 }],
    ["the page holding the last row", {}, { limit: 70, page: 35 }],
    ["a page ending on the last row", {}, { limit: 100, page: 24 }],
    ["the first page past the end", {}, { limit: 100, page: 25 }],
    ["page 1,000,000", { status: "NEW" }, { limit: 100, page: 1_000_000 }],
    ["a range from midnight to midnight", { start_date: day0 / 1000 + 3 * 86_400, end_date: day0 / 1000 + 9 * 86_400 }, { limit: 10, page: 7 }],
    ["a range whose ends are empty days", { start_date: day0 / 1000 + 5 * 86_400 + 60, end_date: day0 / 1000 + 17 * 86_400 + 60 }, { limit: 10, page: 9 }],
  ] as [string, ReportFilters, Paging][])("%s: the same page as in memory", async (_name, filters, paging) => {
    const { result, meta } = await memory.encryptionReports(app, filters, paging);
    expect(await rows(seekPageAndCount(app, filters, paging)!)).toEqual({ total: meta.total_count, result });
  });

  it("the store seeks from the page starting at the seekFrom-th match, for the filters the day counts answer", async () => {
    const seeks = (filters: ReportFilters, paging: Paging) => reportPageAndCount(app, filters, paging).text.includes("seek AS");
    expect(seeks({}, { limit: 100, page: seekFrom / 100 })).toBe(false);
    expect(seeks({}, { limit: 100, page: seekFrom / 100 + 1 })).toBe(true);
    expect(seeks({ status: "NEW", country: "ES", start_date: 1, end_date: 2_000_000_000 }, { limit: 100, page: 2999 })).toBe(true);
    for (const filters of [
      { email: "a@b.example" },
      { device_version: "14" },
      { group: "1" },
      { status: "NEW", ip: "10.0.0.1" },
      { start_date: 1_800_000_000, end_date: 1_800_050_000 },
    ] as ReportFilters[]) {
      expect(seeks(filters, { limit: 100, page: 2999 }), JSON.stringify(filters)).toBe(false);
    }
    const deep = { limit: 100, page: 1_000_000 };
    expect(await db.store.encryptionReports(app, { status: "NEW" }, deep)).toEqual(await memory.encryptionReports(app, { status: "NEW" }, deep));
  });

  /** Rows the plan read from each table (actual rows × loops of every scan node), and its shared buffers. */
  async function planReads(statement: { text: string; values: unknown[] }) {
    const plan = (await db.pool.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.text}`, statement.values)).rows[0]["QUERY PLAN"][0].Plan;
    const read: Record<string, number> = {};
    const walk = (node: Record<string, unknown>) => {
      const relation = node["Relation Name"] as string | undefined;
      if (relation !== undefined) read[relation] = (read[relation] ?? 0) + (node["Actual Rows"] as number) * (node["Actual Loops"] as number);
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    walk(plan);
    return { read, buffers: plan["Shared Hit Blocks"] + plan["Shared Read Blocks"] };
  }

  it.each([
    ["no filter", {}],
    ["status", { status: "NEW" }],
    [
      "country + device_type over a range with partial days",
      { country: "ES", device_type: "ANDROID", start_date: day0 / 1000 + 86_400 + 3_600, end_date: day0 / 1000 + 38 * 86_400 + 3_600 },
    ],
  ] as [string, ReportFilters][])(
    "%s: the last page reads about one day's entries and the day counts, where OFFSET reads every row before it",
    async (_name, filters) => {
      const { total_count: total } = (await memory.encryptionReports(app, filters, { limit: 10, page: 1 })).meta;
      const paging = { limit: 10, page: Math.ceil(total / 10) };
      const start = (paging.page - 1) * paging.limit;
      const perDay = new Map<number, number>();
      for (const report of (await memory.encryptionReports(app, filters, { limit: total, page: 1 })).result) {
        const day = Math.floor(Date.parse(report.created_at) / dayMs);
        perDay.set(day, (perDay.get(day) ?? 0) + 1);
      }
      const busiestDay = Math.max(...perDay.values());
      const dayCountRows = Number((await db.pool.query("SELECT count(*) FROM report_day_counts WHERE application_id = $1", [app])).rows[0].count);
      expect(start).toBeGreaterThan(8 * busiestDay);

      const seek = await planReads(seekPageAndCount(app, filters, paging)!);
      const offset = await planReads(reportPageAndCount(app, filters, paging, "offset"));
      // The seek: the page's day (skipped and read), the records of the page, and at most the
      // two partial days counted at the range's ends; the per-day counts of the application.
      expect(seek.read.encryption_reports).toBeLessThanOrEqual(3 * busiestDay + 2 * paging.limit);
      expect(seek.read.report_day_counts).toBeLessThanOrEqual(dayCountRows);
      // OFFSET: every matching entry before the page.
      expect(offset.read.encryption_reports).toBeGreaterThanOrEqual(start);
      expect(seek.buffers).toBeLessThan(offset.buffers);
    },
  );
});
