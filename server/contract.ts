// The handler contract, written once over the generated types: one handler per operationId,
// taking that operation's validated path, query and body, and returning its 200 body.
// A missing handler, a read of a parameter or field the operation does not have, or a
// returned body off the 200 schema (a wrong `type` string included) fails to compile.
import type { OperationId } from "../generated/operations.js";
import type { operations } from "../generated/schema.js";

type Op<K extends OperationId> = operations[K];
type Part<T, Key extends string> = T extends { parameters: { [P in Key]?: infer V } } ? ([V] extends [undefined] ? {} : NonNullable<V>) : {};

/** Validated path parameters of operation K. */
export type PathParams<K extends OperationId> = Part<Op<K>, "path">;
/** Validated query parameters of operation K, defaults (`limit`, `page`) already applied. */
export type QueryParams<K extends OperationId> = WithDefaults<Part<Op<K>, "query">>;
/** Validated JSON body of operation K (`undefined` for operations without one). */
export type RequestBody<K extends OperationId> = Op<K> extends { requestBody: { content: { "application/json": infer B } } }
  ? B
  : undefined;
/** The 200 body of operation K. */
export type SuccessBody<K extends OperationId> = Op<K>["responses"][200]["content"]["application/json"];

type WithDefaults<Q> = Omit<Q, "limit" | "page"> &
  ("limit" extends keyof Q ? { limit: number } : {}) &
  ("page" extends keyof Q ? { page: number } : {});

/** The application a request's credentials identify. */
export interface Caller {
  applicationId: string;
  organizationId: string;
}

/** What a handler of operation K receives. */
export interface HandlerInput<K extends OperationId> {
  path: PathParams<K>;
  query: QueryParams<K>;
  body: RequestBody<K>;
  caller: Caller;
}

/** A handler of operation K. */
export type Handler<K extends OperationId> = (input: HandlerInput<K>) => SuccessBody<K> | Promise<SuccessBody<K>>;

/** One handler for every operation of the document. */
export type Handlers = { [K in OperationId]: Handler<K> };
