// The encryption reports of one application, built for filtered, paged reads over a million
// records: rows sorted newest first, created_at in a typed array for binary search on the
// date bounds, and for every exact-match filter a map from value to the sorted positions of
// the rows that have it. A query walks only the shortest candidate list inside the date
// range and checks the others by galloping search, never the whole table.
import { normalizeIp } from "../rules/ip.js";
import { newestFirst } from "../rules/order.js";
import type { Page, Paging } from "../rules/paging.js";
import { pageMeta, pageStart } from "../rules/paging.js";
import { reportDateBounds } from "../rules/report-dates.js";
import type { EncryptionReport } from "../seed/types.js";
import { Compactor } from "./compact.js";
import { PostingBuilder, type PostingIndex } from "./postings.js";

/** The filters of GET /reports/encryption (all optional, combined with AND). */
export interface ReportFilters {
  group?: string;
  ip?: string;
  account?: string;
  email?: string;
  country?: string;
  region?: string;
  device_type?: string;
  device_version?: string;
  status?: string;
  start_date?: number;
  end_date?: number;
}

/** The exact-match filters with one key per row, and that key. */
const singleKeyFields = {
  account: (row) => row.account_id,
  email: (row) => row.user.email.toLowerCase(),
  country: (row) => row.country.code,
  region: (row) => row.region.code,
  device_type: (row) => row.device.type,
  device_version: (row) => row.device.version,
  status: (row) => row.status,
} satisfies Record<string, (row: EncryptionReport) => string>;

/** `ip` matches either address of a row; `group` any group of the row's account. */
type IndexedField = keyof typeof singleKeyFields | "ip" | "group";

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
    const single = Object.entries(singleKeyFields).map(([field, keyOf]) => [field as IndexedField, new PostingBuilder(), keyOf] as const);
    const ips = new PostingBuilder();
    const groups = new PostingBuilder();
    const rows = this.#rows;
    for (let position = 0; position < rows.length; position++) {
      const row = rows[position]!;
      for (const [, builder, keyOf] of single) builder.add(keyOf(row), position);
      const source = normalizeIp(row.ip_source);
      const device = normalizeIp(row.ip_device);
      ips.add(source, position);
      if (device !== source) ips.add(device, position);
      for (const group of this.groupsOf(row.account_id)) groups.add(String(group), position);
    }
    this.#indexes = new Map([
      ...single.map(([field, builder]) => [field, builder.build()] as const),
      ["ip", ips.build()],
      ["group", groups.build()],
    ]);
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
    const wanted: [IndexedField, string | undefined][] = [
      ["account", filters.account],
      ["email", filters.email?.toLowerCase()],
      ["country", filters.country],
      ["region", filters.region],
      ["device_type", filters.device_type],
      ["device_version", filters.device_version],
      ["status", filters.status],
      ["ip", filters.ip === undefined ? undefined : normalizeIp(filters.ip)],
      ["group", filters.group === undefined ? undefined : String(Number(filters.group))],
    ];
    const lists = wanted.filter(([, key]) => key !== undefined).map(([field, key]) => this.#indexes.get(field)?.get(key!) ?? none);
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
