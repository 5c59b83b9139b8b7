// The date filters of GET /reports/encryption at their exact bounds: `start_date` takes its
// second from .000, `end_date` its whole second up to .999, and a report at .000 of the next
// second is out. The generated reports of the other suites have random milliseconds and
// never sit on a bound, so a mutant turning the end bound's `<` into `<=` survived them.
// Here reports sit on each side of both bounds, for a bound inside a day (the statement
// filters rows), one at midnight (whole days come from the per-day counts) and one after a
// whole day (the partial day is counted in the rows), with and
// without the group filter, on PostgreSQL and, as the reference, in memory.
import { describe, expect, it } from "vitest";
import { epochMs, generateReports } from "../../../bench/scale/generate.js";
import type { ReportFilters } from "../../../server/domain/index.js";
import { loadSeed } from "../../../server/seed/load.js";
import { callerA } from "../../server/operations/harness.js";
import { unavailable } from "../../postgres/database.js";
import { reportStores } from "./report-stores.js";

const seed = loadSeed();
const dayMs = 86_400_000;
/** A user of application A in a group: the reports are theirs, so the group filter matches them. */
const member = seed.applications.find((a) => a.id === callerA.applicationId)!.users.find((user) => user.groups.length > 0)!;

/**
 * [start_date, end_date] in seconds: inside day 10; whole days 20 to 29 (end at 23:59:59);
 * day 40 and half of day 41 (the total adds the whole day's count and the partial day's rows).
 */
const ranges: [string, number, number][] = [
  ["within a day", (epochMs + 10 * dayMs + 3_600_000) / 1000, (epochMs + 10 * dayMs + 7_200_000) / 1000],
  ["whole days", (epochMs + 20 * dayMs) / 1000, (epochMs + 30 * dayMs) / 1000 - 1],
  ["a whole day and half the next", (epochMs + 40 * dayMs) / 1000, (epochMs + 41 * dayMs + dayMs / 2) / 1000],
];

// For each range: a report 1 ms before the start, at the start, at the end's last millisecond, and at the next second.
const instants = ranges.flatMap(([, start, end]) => [start * 1000 - 1, start * 1000, (end + 1) * 1000 - 1, (end + 1) * 1000]);
const reports = generateReports({ count: instants.length, applicationId: callerA.applicationId, organizationId: callerA.organizationId, accounts: 4 }).map(
  (report, i) => ({
    ...report,
    created_at: new Date(instants[i]!).toISOString(),
    account_id: member.id,
  }),
);
const inside = (index: number) => [reports[index * 4 + 1]!.id, reports[index * 4 + 2]!.id].sort();

describe.skipIf(unavailable !== undefined)("report date filters at their bounds on PostgreSQL", () => {
  const { db, memory } = reportStores(seed, reports);

  const cases = ranges.flatMap(([name, start_date, end_date], index) => [
    [`${name}`, index, { start_date, end_date }] as const,
    [`${name}, group ${member.groups[0]}`, index, { start_date, end_date, group: String(member.groups[0]) }] as const,
  ]);

  it.each(cases)("%s: the report at the start's .000 and the end's .999 are in, the ms before and the next second's .000 out", async (_name, index, filters) => {
    const paging = { limit: 100, page: 1 };
    const ids = async (find: () => Promise<{ result: { id: string }[]; meta: { total_count?: number } }>) => {
      const page = await find();
      return { ids: page.result.map((report) => report.id).sort(), total: page.meta.total_count };
    };
    const expected = { ids: inside(index), total: 2 };
    expect(await ids(() => memory.encryptionReports(callerA.applicationId, filters as ReportFilters, paging))).toEqual(expected);
    expect(await ids(() => db.store.encryptionReports(callerA.applicationId, filters as ReportFilters, paging))).toEqual(expected);
  });
});
