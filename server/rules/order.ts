// List order of every list operation: newest first (`created_at` descending), ties broken
// by `id` ascending so that paging is stable. Timestamps all have the one ISO form with
// milliseconds (the schema's pattern), so comparing the strings compares the instants.

interface Dated {
  id: string;
  created_at: string;
}

/** Comparator: newest first, then by id. */
export function newestFirst(a: Dated, b: Dated): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A sorted copy, newest first. */
export function sortNewestFirst<T extends Dated>(records: readonly T[]): T[] {
  return [...records].sort(newestFirst);
}
