// The encryption reports of one application, built for filtered, paged reads over a million
// records: rows sorted newest first, created_at in a typed array for binary search on the
// date bounds, and for every exact-match filter a map from value to the sorted positions of
// the rows that have it. A query walks only the shortest candidate list inside the date
// range and checks the others by galloping search, never the whole table.
import { normalizeIp } from "../rules/ip.js";
import { newestFirst } from "../rules/order.js";
import type { EncryptionReport, Page, Paging, ReportFilters } from "../domain/index.js";
import { pageMeta, pageStart } from "../rules/paging.js";
import { reportDateBounds } from "../rules/report-dates.js";
import { Compactor } from "./compact.js";
import { PostingBuilder, type PostingIndex } from "./postings.js";

type GroupsOf = (accountId: string) => readonly number[];

/** An exact-match filter answered from an index: the keys each row is filed under, and the key a value looks up. */
interface IndexedFilter<V> {
  /** Files the row at `position` under each of its keys. */
  file(row: EncryptionReport, position: number, index: PostingBuilder, groupsOf: GroupsOf): void;
  /** The index key of a filter value. */
  lookup(value: V): string;
}

/** `start_date`/`end_date`: bounds on `created_at`, answered by binary search on the date column. */
const dateBound = "created_at bound";

/** A filter with one key per row. */
const singleKey = (keyOf: (row: EncryptionReport) => string, lookup: (value: string) => string = (value) => value): IndexedFilter<string> => ({
  file: (row, position, index) => index.add(keyOf(row), position),
  lookup,
});

/**
 * How each filter of the operation is answered. Keyed by the operation's own query
 * parameters: a filter added to the document fails to compile here until it is handled.
 */
const filterFields = {
  account: singleKey((row) => row.account_id),
  email: singleKey(
    (row) => row.user.email.toLowerCase(),
    (value) => value.toLowerCase(),
  ),
  country: singleKey((row) => row.country.code),
  region: singleKey((row) => row.region.code),
  device_type: singleKey((row) => row.device.type),
  device_version: singleKey((row) => row.device.version),
  status: singleKey((row) => row.status),
  // Either address of a row matches.
  ip: {
    file(row, position, index) {
      const source = normalizeIp(row.ip_source);
      const device = normalizeIp(row.ip_device);
      index.add(source, position);
      if (device !== source) index.add(device, position);
    },
    lookup: normalizeIp,
  },
  // Any group of the row's account matches; `07` and `7` are the same group.
  group: {
    file(row, position, index, groupsOf) {
      for (const group of groupsOf(row.account_id)) index.add(String(group), position);
    },
    lookup: (value) => String(Number(value)),
  },
  start_date: dateBound,
  end_date: dateBound,
} satisfies { [K in keyof Required<ReportFilters>]: IndexedFilter<NonNullable<ReportFilters[K]>> | typeof dateBound };

type IndexedField = { [K in keyof typeof filterFields]: (typeof filterFields)[K] extends typeof dateBound ? never : K }[keyof typeof filterFields];

const indexedFields = (Object.keys(filterFields) as (keyof typeof filterFields)[]).filter((field): field is IndexedField => filterFields[field] !== dateBound);

const none = new Int32Array(0);

export class ReportTable {
  #rows: EncryptionReport[] = [];
  /** created_at of each row in ms, descending (same order as the rows). */
  #createdMs = new Float64Array(0);
  #indexes = new Map<IndexedField, PostingIndex>();
  readonly #compactor = new Compactor();

  /** @param groupsOf the user groups of an account (for the `group` filter). */
  constructor(private readonly groupsOf: (accountId: string) => readonly number[]) {}

  /** Adds records (copied compactly) and rebuilds the order and the indexes once. */
  add(records: readonly EncryptionReport[]): void {
    const rows = this.#rows.concat(records.map((record) => this.#compactor.report(record)));
    rows.sort(newestFirst);
    this.#rows = rows;
    this.#createdMs = Float64Array.from(rows, (row) => Date.parse(row.created_at));
    this.#rebuildIndexes();
  }

  /** One pass over the rows: each row's position goes into the list of each of its keys. */
  #rebuildIndexes(): void {
    const builders = indexedFields.map((field) => [field, filterFields[field] as IndexedFilter<never>, new PostingBuilder()] as const);
    const rows = this.#rows;
    const groupsOf = this.groupsOf;
    for (let position = 0; position < rows.length; position++) {
      const row = rows[position]!;
      for (const [, filter, builder] of builders) filter.file(row, position, builder, groupsOf);
    }
    this.#indexes = new Map(builders.map(([field, , builder]) => [field, builder.build()] as const));
  }

  /** The requested page of the reports matching every filter, newest first. */
  find(filters: ReportFilters, paging: Paging): Page<EncryptionReport> {
    const { fromMs, untilMs } = reportDateBounds(filters.start_date, filters.end_date);
    // Rows are newest first: those created before `untilMs` start at `lo`, those at or
    // after `fromMs` end before `hi`.
    const lo = firstIndex(this.#createdMs, (ms) => ms < untilMs);
    const hi = firstIndex(this.#createdMs, (ms) => ms < fromMs);

    const lists = this.#candidateLists(filters);
    const start = pageStart(paging);
    if (lists === undefined) {
      const total = Math.max(0, hi - lo);
      const result = this.#rows.slice(lo + start, Math.min(hi, lo + start + paging.limit));
      return { result, meta: pageMeta(total, result.length, paging) };
    }

    lists.sort((a, b) => a.length - b.length);
    const [shortest, ...others] = lists as [Int32Array, ...Int32Array[]];
    const from = lowerBound(shortest, lo, 0);
    const to = lowerBound(shortest, hi, from);
    if (others.length === 0) {
      const positions = shortest.subarray(from + start, Math.min(to, from + start + paging.limit));
      const result = Array.from(positions, (position) => this.#rows[position]!);
      return { result, meta: pageMeta(Math.max(0, to - from), result.length, paging) };
    }

    const cursors = new Int32Array(others.length);
    const result: EncryptionReport[] = [];
    let total = 0;
    for (let i = from; i < to; i++) {
      const position = shortest[i]!;
      let inAll = true;
      for (let k = 0; k < others.length; k++) {
        const list = others[k]!;
        const at = gallop(list, position, cursors[k]!);
        cursors[k] = at;
        if (list[at] !== position) {
          inAll = false;
          break;
        }
      }
      if (!inAll) continue;
      if (total >= start && result.length < paging.limit) result.push(this.#rows[position]!);
      total++;
    }
    return { result, meta: pageMeta(total, result.length, paging) };
  }

  /** The position list of each exact-match filter given, or undefined when none is. */
  #candidateLists(filters: ReportFilters): Int32Array[] | undefined {
    const lists: Int32Array[] = [];
    for (const field of indexedFields) {
      const value = filters[field];
      if (value === undefined) continue;
      const key = (filterFields[field] as IndexedFilter<typeof value>).lookup(value);
      lists.push(this.#indexes.get(field)?.get(key) ?? none);
    }
    return lists.length === 0 ? undefined : lists;
  }
}

/** First index of a descending array where `past` holds (it holds for a suffix). */
function firstIndex(values: Float64Array, past: (value: number) => boolean): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (past(values[mid]!)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** First index at or after `from` of a sorted list whose value is >= `target`. */
function lowerBound(list: Int32Array, target: number, from: number): number {
  return lowerBoundWithin(list, target, from, list.length);
}

/** Like lowerBound, but probing 1, 2, 4, ... ahead first: cheap when the cursor moves little. */
function gallop(list: Int32Array, target: number, from: number): number {
  // Invariant: every value before `low` is < target; list[high] >= target or high is past the end.
  let low = from;
  let high = from;
  let step = 1;
  while (high < list.length && list[high]! < target) {
    low = high + 1;
    high += step;
    step *= 2;
  }
  return lowerBoundWithin(list, target, low, Math.min(high, list.length));
}

function lowerBoundWithin(list: Int32Array, target: number, low: number, high: number): number {
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (list[mid]! < target) low = mid + 1;
    else high = mid;
  }
  return low;
}
