// Paging shared by every list operation (docs/decisions.md, Paging): `limit` 10..100 (default 10)
// and `page` >= 1 (default 1) are bounded by the document; this module only computes the
// slice and the `meta` the source describes.
import { invalid } from "../problems.js";
import type { Page, PageMeta, Paging } from "../domain/index.js";

/**
 * Index of the first record of the requested page. JSON Schema's `integer` lets an infinite
 * number through (`?page=Infinity` coerces to one), which no `meta` could carry: refused here.
 */
export function pageStart({ limit, page }: Paging): number {
  const infinite = Object.entries({ limit, page }).filter(([, value]) => !Number.isFinite(value));
  if (infinite.length > 0) {
    throw invalid(
      "Paging values must be finite integers.",
      infinite.map(([name]) => ({ in: "query" as const, name, message: "must be a finite integer" })),
    );
  }
  return (page - 1) * limit;
}

/**
 * The `meta` of a page holding `currentCount` of `total` records. An empty list reports
 * page 1 (as the source says); a page past the end keeps the real totals and the page asked.
 */
export function pageMeta(total: number, currentCount: number, { limit, page }: Paging): PageMeta {
  return {
    total_count: total,
    page_count: Math.ceil(total / limit),
    current_count: currentCount,
    current_page: total === 0 ? 1 : page,
  };
}

/** The requested page of an already ordered list. */
export function pageOf<T>(ordered: readonly T[], paging: Paging): Page<T> {
  const start = pageStart(paging);
  const result = ordered.slice(start, start + paging.limit);
  return { result, meta: pageMeta(ordered.length, result.length, paging) };
}
