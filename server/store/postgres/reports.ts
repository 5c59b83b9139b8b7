// GET /reports/encryption on PostgreSQL: the filters as one WHERE clause over the indexed
// filter columns (a group through report_groups), newest first with id as tie-break, an
// exact total_count (count(*), or for the broad filters whole days summed from
// report_day_counts), deep pages of the broad filters found by seeking through those
// per-day counts; and the bulk load as one COPY stream of the normalized filter columns
// beside the record.
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import type { PoolClient } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { normalizeIp } from "../../rules/ip.js";
import { pageStart } from "../../rules/paging.js";
import type { EncryptionReport, Paging, ReportFilters } from "../../domain/index.js";
import { reportDateBounds } from "../../rules/report-dates.js";
import { reportColumns, sql } from "./sql.js";

export interface Statement {
  text: string;
  values: unknown[];
}

/** Filters the per-day counts (report_day_counts) can answer: the columns it groups by, and dates. */
const dayCountFilters = new Set<string>(["country", "region", "device_type", "status", "start_date", "end_date"]);
const dayMs = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * How a page is found: `seek` through the per-day counts where they answer the filters,
 * `offset` always by OFFSET, `auto` (the store's) by OFFSET while the page starts within
 * the first `seekFrom` matches and by seeking beyond.
 */
export type PageMethod = "auto" | "seek" | "offset";

/**
 * From this many matches before a page, seeking is cheaper than OFFSET. Seeking sums the
 * day counts per day, which costs a little more than the count's plain sum (about as much
 * as skipping 10,000 index entries here): shallower pages skip instead, so page 1 costs
 * what it did and no page costs more than page 1 plus that.
 */
export const seekFrom = 10_000;

/**
 * The count and the page in one statement (one round trip, one snapshot): found by seeking
 * (`seekPageAndCount`) as `method` says and the filters allow; otherwise the page is a CTE of
 * the OFFSET query and the count a scalar subquery with its parameters numbered after the
 * page's.
 */
export function reportPageAndCount(applicationId: string, filters: ReportFilters, paging: Paging, method: PageMethod = "auto"): Statement {
  if (method === "seek" || (method === "auto" && pageStart(paging) >= seekFrom)) {
    const seek = seekPageAndCount(applicationId, filters, paging);
    if (seek !== undefined) return seek;
  }
  const { count, page } = reportQuery(applicationId, filters, paging);
  const shift = page.values.length;
  const countText = count.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + shift}`);
  return {
    text: `WITH page AS (${page.text}) SELECT (${countText}) AS total, coalesce((SELECT json_agg(body ORDER BY created_at DESC, id) FROM page), '[]') AS result`,
    values: [...page.values, ...count.values],
  };
}

/** A statement's values and the placeholder of each value added. */
function parameters(values: unknown[]) {
  return (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
}

/**
 * The WHERE clauses of a filter set: `columns` over encryption_reports' own filter columns
 * (unqualified: report_day_counts has the low-cardinality ones too) with `columnValues`, and
 * the page's whole `clause` over `from` (encryption_reports, or report_groups for a group),
 * its values in `values`.
 */
function filterSql(applicationId: string, filters: ReportFilters) {
  const { fromMs, untilMs } = reportDateBounds(filters.start_date, filters.end_date);
  const values: unknown[] = [applicationId];
  const param = parameters(values);
  const conditions: string[] = [];
  for (const [field, column] of Object.entries(reportColumns) as [keyof typeof reportColumns, string][]) {
    const value = filters[field];
    if (value === undefined) continue;
    conditions.push(`${column} = ${param(field === "email" ? value.toLowerCase() : value)}`);
  }
  if (filters.ip !== undefined) {
    const ip = param(normalizeIp(filters.ip));
    conditions.push(`(ip_source = ${ip} OR ip_device = ${ip})`);
  }
  const columns = ["application_id = $1", ...conditions].join(" AND ");
  const columnValues = [...values];
  const group = filters.group === undefined ? undefined : param(Number(filters.group));
  const dates = (column: string) => [
    ...(Number.isFinite(fromMs) ? [`${column} >= ${param(new Date(fromMs).toISOString())}`] : []),
    ...(Number.isFinite(untilMs) ? [`${column} < ${param(new Date(untilMs).toISOString())}`] : []),
  ];
  if (group === undefined) {
    return { fromMs, untilMs, columns, columnValues, values, param, from: "encryption_reports", key: "", clause: [columns, ...dates("created_at")].join(" AND ") };
  }
  // Inside EXISTS the unqualified columns are the report's (the innermost table).
  const others = conditions.length > 0 ? [`EXISTS (SELECT 1 FROM encryption_reports WHERE application_id = $1 AND id = g.id AND ${conditions.join(" AND ")})`] : [];
  const clause = [`g.application_id = $1`, `g.group_id = ${group}`, ...dates("g.created_at"), ...others].join(" AND ");
  return { fromMs, untilMs, columns, columnValues, values, param, from: "report_groups g", key: "g.", clause };
}

/** True when every filter given is one the per-day counts group by (or a date). */
const byDays = (filters: ReportFilters) => Object.entries(filters).every(([field, value]) => value === undefined || dayCountFilters.has(field));

/**
 * The count and page statements of a report query by OFFSET. The page is found by ids first
 * (an index-only scan of the filter's index, in list order) and only its `limit` records are
 * read from the table, so a deep page skips index entries rather than whole records. A
 * `group` filter reads report_groups, whose index is in list order per group, so the page
 * stops at `limit` even when the group matches nothing (a scan of the newest-first index
 * filtered on the groups array would read every report of the application).
 */
export function reportQuery(applicationId: string, filters: ReportFilters, paging: Paging): { count: Statement; page: Statement } {
  const start = pageStart(paging);
  const { fromMs, untilMs, columns, columnValues, values, param, from, key, clause } = filterSql(applicationId, filters);
  const days = byDays(filters) ? wholeDays(fromMs, untilMs) : undefined;
  let count: Statement;
  if (days === undefined) {
    count = { text: `SELECT count(*)::int AS total FROM ${from} WHERE ${clause}`, values: [...values] };
  } else {
    const countValues = [...columnValues];
    count = { text: `SELECT (SELECT coalesce(sum(n), 0) FROM (${dayRows(columns, parameters(countValues), days, false)}) d)::int AS total`, values: countValues };
  }
  return {
    count,
    page: {
      text:
        `SELECT r.body, r.created_at, r.id FROM (SELECT ${key}id, ${key}created_at FROM ${from} WHERE ${clause} ORDER BY ${key}created_at DESC, ${key}id LIMIT ${param(paging.limit)} OFFSET ${param(start)}) k ` +
        `JOIN encryption_reports r ON r.application_id = $1 AND r.id = k.id ORDER BY r.created_at DESC, r.id`,
      values,
    },
  };
}

/**
 * The page and its count found through the per-day counts, in one statement (one snapshot):
 * `days` holds, per UTC day of the range, how many reports match (whole days summed from
 * report_day_counts, the partial days at the ends counted in encryption_reports); a running
 * sum newest first finds the day that holds the page's first row and how many matching rows
 * are newer; the page is then read from the end of that day with an OFFSET of less than one
 * day's matches. The total is the sum of `days`. So page 2999 skips at most one day's index
 * entries where OFFSET skipped 299,800. Undefined when the counts cannot answer the filters
 * (a column they do not group by, a group) or the range holds no whole day.
 */
export function seekPageAndCount(applicationId: string, filters: ReportFilters, paging: Paging): Statement | undefined {
  if (!byDays(filters)) return undefined;
  const start = pageStart(paging);
  const { fromMs, untilMs, columns, values, param, clause } = filterSql(applicationId, filters);
  const range = wholeDays(fromMs, untilMs);
  if (range === undefined) return undefined;
  const days = dayRows(columns, param, range, true);
  const first = param(start);
  // numeric from the window's sum; OFFSET and the comparison take bigint.
  const seek =
    `SELECT (day + 1)::timestamp AT TIME ZONE 'UTC' AS until, (${first}::bigint - (through - n))::bigint AS skip ` +
    `FROM (SELECT day, n, sum(n) OVER (ORDER BY day DESC) AS through FROM days) d WHERE through > ${first}::bigint ORDER BY day DESC LIMIT 1`;
  // Past the last page no day is found: `until` is NULL and the page empty, the total still exact.
  const page =
    `SELECT r.body, r.created_at, r.id FROM (SELECT id, created_at FROM encryption_reports WHERE ${clause} AND created_at < (SELECT until FROM seek) ` +
    `ORDER BY created_at DESC, id LIMIT ${param(paging.limit)} OFFSET (SELECT skip FROM seek)) k JOIN encryption_reports r ON r.application_id = $1 AND r.id = k.id`;
  return {
    text:
      `WITH days AS (${days}), seek AS (${seek}), page AS (${page}) ` +
      `SELECT (SELECT coalesce(sum(n), 0) FROM days)::int AS total, coalesce((SELECT json_agg(body ORDER BY created_at DESC, id) FROM page), '[]') AS result`,
    values,
  };
}

/** The whole UTC days of a range, `[firstDay, endDay)` in ms (infinite when open); undefined when it holds none. */
function wholeDays(fromMs: number, untilMs: number): { firstDay: number; endDay: number; fromMs: number; untilMs: number } | undefined {
  const firstDay = Number.isFinite(fromMs) ? Math.ceil(fromMs / dayMs) * dayMs : -Infinity;
  const endDay = Number.isFinite(untilMs) ? Math.floor(untilMs / dayMs) * dayMs : Infinity;
  return firstDay < endDay ? { firstDay, endDay, fromMs, untilMs } : undefined;
}

/**
 * Rows `(day, n)`: the matching reports per UTC day of the range, whole days summed from
 * report_day_counts and the partial days at the ends (before the first whole day, from the
 * last) counted in encryption_reports. At most a row per day and combination of the
 * low-cardinality columns is read, however many reports match. Without `perDay` the whole
 * days are one row (a count needs no more).
 */
function dayRows(
  columns: string,
  param: (value: unknown) => string,
  { firstDay, endDay, fromMs, untilMs }: NonNullable<ReturnType<typeof wholeDays>>,
  perDay: boolean,
): string {
  const at = (ms: number) => param(new Date(ms).toISOString());
  const days = [columns];
  if (Number.isFinite(firstDay)) days.push(`day >= ${param(isoDay(firstDay))}::date`);
  if (Number.isFinite(endDay)) days.push(`day < ${param(isoDay(endDay))}::date`);
  const parts = [
    perDay
      ? `SELECT day, sum(n) AS n FROM report_day_counts WHERE ${days.join(" AND ")} GROUP BY day`
      : `SELECT NULL::date AS day, sum(n) AS n FROM report_day_counts WHERE ${days.join(" AND ")}`,
  ];
  const partial = (day: number, fromTs: number, untilTs: number) =>
    parts.push(`SELECT ${param(isoDay(day))}::date, count(*) FROM encryption_reports WHERE ${columns} AND created_at >= ${at(fromTs)} AND created_at < ${at(untilTs)}`);
  if (Number.isFinite(untilMs) && endDay < untilMs) partial(endDay, endDay, untilMs);
  if (Number.isFinite(fromMs) && fromMs < firstDay) partial(firstDay - dayMs, fromMs, firstDay);
  return parts.join(" UNION ALL ");
}

/** COPY's text format: backslash, tab, newline and carriage return escaped. */
const field = (value: string) => value.replace(/[\\\t\n\r]/g, (c) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[c]!);

/** One COPY line of a report. */
function copyLine(applicationId: string, row: EncryptionReport, groups: readonly number[]): string {
  return (
    [
      applicationId,
      row.id,
      row.created_at,
      row.account_id,
      row.user.email.toLowerCase(),
      row.country.code,
      row.region.code,
      row.device.type,
      row.device.version,
      row.status,
      normalizeIp(row.ip_source),
      normalizeIp(row.ip_device),
      `{${groups.join(",")}}`,
      JSON.stringify(row),
    ]
      .map(field)
      .join("\t") + "\n"
  );
}

/**
 * Streams `records` into encryption_reports with COPY and rebuilds the application's per-day
 * counts, in the caller's transaction (which locks the application, so loads of one
 * application never interleave).
 */
export async function copyReports(client: PoolClient, applicationId: string, records: readonly EncryptionReport[]): Promise<void> {
  const groups = new Map((await client.query<{ id: string; groups: number[] }>(sql.userGroups, [applicationId])).rows.map((row) => [row.id, row.groups]));
  const batch = 2_000;
  async function* lines() {
    for (let i = 0; i < records.length; i += batch) {
      yield records
        .slice(i, i + batch)
        .map((row) => copyLine(applicationId, row, groups.get(row.account_id) ?? []))
        .join("");
    }
  }
  await pipeline(Readable.from(lines()), client.query(copyFrom(sql.copyReports)));
  await client.query(sql.clearReportDayCounts, [applicationId]);
  await client.query(sql.countReportDays, [applicationId]);
  await client.query(sql.clearReportGroups, [applicationId]);
  await client.query(sql.listReportGroups, [applicationId]);
}
