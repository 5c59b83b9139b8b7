// Paging shared by every list operation (4.2, 4.3, 4.8, 4.9): `limit` 10..100 (default 10)
// and `page` >= 1 (default 1) are bounded by the document; this module only computes the
// slice and the `meta` the source describes.
import type { PageMeta } from "../seed/types.js";

export interface Paging {
  limit: number;
  page: number;
}

/** One page of a list and its `meta`. */
export interface Page<T> {
  result: T[];
  meta: PageMeta;
}

/** Index of the first record of the requested page. */
export function pageStart({ limit, page }: Paging): number {
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
