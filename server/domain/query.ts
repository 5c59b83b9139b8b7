// The validated query of an operation and the paging every list shares, as types over the
// generated operations: what rules and stores receive once the request layer has checked it.
import type { OperationId } from "../../generated/operations.js";
import type { operations as ApiOperations } from "../../generated/schema.js";
import type { PageMeta } from "./resources.js";

/** The parameters of operation type O found in `Key` (path, query…), or {} when it has none. */
export type ParametersIn<O, Key extends string> = O extends { parameters: { [P in Key]?: infer V } } ? ([V] extends [undefined] ? {} : NonNullable<V>) : {};

type WithDefaults<Q> = Omit<Q, "limit" | "page"> & ("limit" extends keyof Q ? { limit: number } : {}) & ("page" extends keyof Q ? { page: number } : {});

/** Validated query parameters of operation type O, defaults (`limit`, `page`) already applied. */
export type OperationQuery<O> = WithDefaults<ParametersIn<O, "query">>;

/** Validated query parameters of this API's operation K, defaults (`limit`, `page`) already applied. */
export type QueryParams<K extends OperationId> = OperationQuery<ApiOperations[K]>;

/** The filters of GET /reports/encryption (all optional, combined with AND): its query without paging. */
export type ReportFilters = Omit<QueryParams<"findEncryptionReports">, "limit" | "page">;

/** The page asked of a list (docs/decisions.md, Paging). */
export interface Paging {
  limit: number;
  page: number;
}

/** One page of a list and its `meta`. */
export interface Page<T> {
  result: T[];
  meta: PageMeta;
}
