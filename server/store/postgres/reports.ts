// GET /reports/encryption on PostgreSQL: the filters as one WHERE clause over the indexed
// filter columns (a group through report_groups), newest first with id as tie-break, an
// exact total_count (count(*), or for the broad filters whole days summed from
// report_day_counts); and the bulk load as one COPY stream of the normalized filter columns
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

/**
 * The count and the page in one statement (one round trip, one snapshot): the page as a CTE,
 * the count as a scalar subquery with its parameters numbered after the page's.
 */
export function reportPageAndCount(applicationId: string, filters: ReportFilters, paging: Paging): Statement {
  const { count, page } = reportQuery(applicationId, filters, paging);
  const shift = page.values.length;
  const countText = count.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + shift}`);
  return {
    text: `WITH page AS (${page.text}) SELECT (${countText}) AS total, coalesce((SELECT json_agg(body ORDER BY created_at DESC, id) FROM page), '[]') AS result`,
    values: [...page.values, ...count.values],
  };
}

/**
 * The count and page statements of a report query. The page is found by ids first (an
 * index-only scan of the filter's index, in list order) and only its `limit` records are
 * read from the table, so a deep page skips index entries rather than whole records. A
 * `group` filter reads report_groups, whose index is in list order per group, so the page
 * stops at `limit` even when the group matches nothing (a scan of the newest-first index
 * filtered on the groups array would read every report of the application).
 */
export function reportQuery(applicationId: string, filters: ReportFilters, paging: Paging): { count: Statement; page: Statement } {
  const { fromMs, untilMs } = reportDateBounds(filters.start_date, filters.end_date);
  const start = pageStart(paging);
  const values: unknown[] = [applicationId];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  // Conditions on encryption_reports' own filter columns (unqualified: report_day_counts has them too).
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
  let from: string;
  let clause: string;
  if (group === undefined) {
    from = "encryption_reports";
    clause = [columns, ...dates("created_at")].join(" AND ");
  } else {
    // Inside EXISTS the unqualified columns are the report's (the innermost table).
    const others = conditions.length > 0 ? [`EXISTS (SELECT 1 FROM encryption_reports WHERE application_id = $1 AND id = g.id AND ${conditions.join(" AND ")})`] : [];
    from = "report_groups g";
    clause = [`g.application_id = $1`, `g.group_id = ${group}`, ...dates("g.created_at"), ...others].join(" AND ");
  }
  const byDays = Object.entries(filters).every(([field, value]) => value === undefined || dayCountFilters.has(field));
  const count = (byDays ? dayCount(columns, columnValues, fromMs, untilMs) : undefined) ?? {
    text: `SELECT count(*)::int AS total FROM ${from} WHERE ${clause}`,
    values: [...values],
  };
  const key = group === undefined ? "" : "g.";
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
 * The exact count as whole UTC days summed from report_day_counts plus the partial days at
 * the ends counted in encryption_reports, in one statement (one snapshot). Undefined when
 * the range is shorter than a day, where counting the rows is cheap anyway.
 */
function dayCount(columns: string, columnValues: readonly unknown[], fromMs: number, untilMs: number): Statement | undefined {
  const firstDay = Number.isFinite(fromMs) ? Math.ceil(fromMs / dayMs) * dayMs : -Infinity;
  const endDay = Number.isFinite(untilMs) ? Math.floor(untilMs / dayMs) * dayMs : Infinity;
  if (firstDay >= endDay) return undefined;
  const values = [...columnValues];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const at = (ms: number) => param(new Date(ms).toISOString());
  const days = [columns];
  if (Number.isFinite(firstDay)) days.push(`day >= ${param(new Date(firstDay).toISOString().slice(0, 10))}::date`);
  if (Number.isFinite(endDay)) days.push(`day < ${param(new Date(endDay).toISOString().slice(0, 10))}::date`);
  const parts = [`(SELECT coalesce(sum(n), 0) FROM report_day_counts WHERE ${days.join(" AND ")})`];
  const rows = (fromTs: number, untilTs: number) =>
    parts.push(`(SELECT count(*) FROM encryption_reports WHERE ${columns} AND created_at >= ${at(fromTs)} AND created_at < ${at(untilTs)})`);
  if (Number.isFinite(fromMs) && fromMs < firstDay) rows(fromMs, firstDay);
  if (Number.isFinite(untilMs) && endDay < untilMs) rows(endDay, untilMs);
  return { text: `SELECT (${parts.join(" + ")})::int AS total`, values };
}

/** COPY's text format: backslash, tab, newline and carriage return escaped. */
const field = (value: string) => value.replace(/[\\\t\n\r]/g, (c) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[c]!);

/** One COPY line of a report. */
function copyLine(applicationId: string, row: EncryptionReport, groups: readonly number[]): string {
  return [
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
  ].map(field).join("\t") + "\n";
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
      yield records.slice(i, i + batch).map((row) => copyLine(applicationId, row, groups.get(row.account_id) ?? [])).join("");
    }
  }
  await pipeline(Readable.from(lines()), client.query(copyFrom(sql.copyReports)));
  await client.query(sql.clearReportDayCounts, [applicationId]);
  await client.query(sql.countReportDays, [applicationId]);
  await client.query(sql.clearReportGroups, [applicationId]);
  await client.query(sql.listReportGroups, [applicationId]);
}
