// The domain: the resources, the caller, the validated query and paging, and the store port.
// Framework-free: nothing here imports Express, PostgreSQL, pino or the validator (checked by
// test/server/domain-boundary.test.ts), so rules, stores and any request layer share it.
export type { Caller } from "./caller.js";
export type { OperationQuery, Page, Paging, ParametersIn, QueryParams, ReportFilters } from "./query.js";
export type * from "./resources.js";
export type { Store } from "./store.js";
