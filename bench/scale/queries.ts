// The filtered, paged report queries measured at each size, as HTTP paths and as the
// store filters the handler would pass (validated query, limit/page split off).
import type { ReportFilters } from "../../server/domain/index.js";
import { epochMs } from "./generate.js";

const seconds = (ms: number) => Math.floor(ms / 1000);
const month = { start_date: seconds(epochMs + 180 * 86_400_000), end_date: seconds(epochMs + 210 * 86_400_000) - 1 };
const quarter = { start_date: seconds(epochMs + 400 * 86_400_000), end_date: seconds(epochMs + 490 * 86_400_000) - 1 };

export interface ScaleQuery {
  name: string;
  filters: ReportFilters;
  limit: number;
  page: number;
}

export const queries: ScaleQuery[] = [
  { name: "country+device_type, page 3 of 20", filters: { country: "ES", device_type: "ANDROID" }, limit: 20, page: 3 },
  { name: "one month + status, page 2 of 50", filters: { ...month, status: "REVOKED" }, limit: 50, page: 2 },
  { name: "one account by e-mail, page 1 of 10", filters: { email: "user42@bench.acme-shop.example" }, limit: 10, page: 1 },
  { name: "country+status+quarter, page 10 of 100", filters: { country: "US", status: "NEW", ...quarter }, limit: 100, page: 10 },
  { name: "date range only (a quarter), page 1 of 10", filters: { ...quarter }, limit: 10, page: 1 },
];

/** The query's URL path below `/v1`. */
export function pathOf(q: ScaleQuery): string {
  const params = new URLSearchParams(Object.entries(q.filters).map(([k, v]): [string, string] => [k, String(v)]));
  params.set("limit", String(q.limit));
  params.set("page", String(q.page));
  return `/reports/encryption?${params}`;
}
