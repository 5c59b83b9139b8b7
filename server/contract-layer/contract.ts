// The handler contract, written once over the types openapi-typescript generates: one handler
// per operationId, taking that operation's validated path, query and body, and returning its
// 200 body or a typed result `{ status, body?, headers? }` of one of its documented 2xx
// responses. A missing handler, a read of a parameter or field the operation does not have,
// an undocumented status, a body for a 204 or a missing documented header fails to compile.
// Generic over the `operations` interface of any document; this API's is the default.
import type { IncomingHttpHeaders } from "node:http";
import type { Logger } from "pino";
import type { OperationId } from "../../generated/operations.js";
import type { operations as ApiOperations } from "../../generated/schema.js";
import type { Caller, OperationQuery, ParametersIn } from "../domain/index.js";

export type { Caller, OperationQuery, QueryParams } from "../domain/index.js";

/** Validated path parameters of operation type O. */
export type OperationPath<O> = ParametersIn<O, "path">;
/** Validated JSON body of operation type O (`undefined` for operations without one). */
export type OperationBody<O> = O extends { requestBody: { content: { "application/json": infer B } } } ? B : undefined;

/** The statuses of O's documented success responses. */
export type SuccessStatus<O> = O extends { responses: infer R } ? Extract<keyof R, 200 | 201 | 202 | 203 | 204 | 205 | 206> : never;
type ResponseOf<O, S> = O extends { responses: infer R } ? (S extends keyof R ? R[S] : never) : never;

/** The body of one response: its JSON body, else its one other media type's, else none. */
type BodyOf<R> = R extends { content: { "application/json": infer B } } ? B : R extends { content: infer C } ? ([C] extends [undefined] ? never : C[keyof C]) : never;

/**
 * Response headers the layer sets itself on every response (request id, rate limit, CORS),
 * so a handler never has to return them although the document marks them required.
 */
export type LayerHeader = "X-Request-Id" | "RateLimit" | "RateLimit-Policy" | "Retry-After" | "Access-Control-Allow-Origin" | "Access-Control-Expose-Headers" | "Vary";

/** A header object without openapi-typescript's `[name: string]: unknown` and the layer's own. */
type DocumentedHeaders<H> = { [P in keyof H as string extends P ? never : number extends P ? never : P extends LayerHeader ? never : P]: H[P] };

/** Headers a handler may add beside the documented ones. */
export type ExtraHeaders = { [name: string]: string | number | readonly string[] | undefined };

type HeadersPart<R> = R extends { headers: infer H }
  ? {} extends DocumentedHeaders<H>
    ? { headers?: DocumentedHeaders<H> & ExtraHeaders }
    : { headers: DocumentedHeaders<H> & ExtraHeaders }
  : { headers?: ExtraHeaders };

type BodyPart<R> = [BodyOf<R>] extends [never] ? { body?: undefined } : { body: BodyOf<R> };

/** A typed result of operation type O: one documented 2xx status with its body and headers. */
export type OperationResult<O> =
  SuccessStatus<O> extends infer S ? (S extends SuccessStatus<O> ? { status: S } & BodyPart<ResponseOf<O, S>> & HeadersPart<ResponseOf<O, S>> : never) : never;

/**
 * The 200 body of O, which a handler may return as is (never when O has no JSON 200). The
 * `[…] extends [never]` test comes first: for an operation without a 200 (a DELETE's 204)
 * ResponseOf is never, which the conditional below would infer as `unknown`, letting a
 * handler return any value.
 */
export type OperationSuccessBody<O> = [ResponseOf<O, 200>] extends [never] ? never : ResponseOf<O, 200> extends { content: { "application/json": infer B } } ? B : never;

/** The 200 body as a handler may return it bare: only when the 200 requires no header of the handler. */
type BareBody<O> = HeadersPart<ResponseOf<O, 200>> extends { headers: unknown } ? never : OperationSuccessBody<O>;

/** What a handler of O may return: its 200 body (when no header is required), or a typed result. */
export type OperationOutput<O> = BareBody<O> | OperationResult<O>;

/** What a handler of operation type O receives; `Context` is what the app's `context` option builds. */
export interface OperationInput<O, Context = undefined> {
  path: OperationPath<O>;
  query: OperationQuery<O>;
  body: OperationBody<O>;
  /** The application the request's credentials identify. */
  caller: Caller;
  /** This request's id (the X-Request-Id of its response and of its log lines). */
  requestId: string;
  /** A logger bound to this request (its lines carry the request id; credentials redacted). */
  log: Logger;
  /**
   * The request headers as Node gives them (lower-case names), frozen; the credential
   * headers (Authorization, X-Api-Key, X-Api-Secret, Cookie) are left out: `caller` says
   * whose they were.
   */
  readonly headers: Readonly<IncomingHttpHeaders>;
  /** What the app's `context(req, res)` option built for this request (undefined without one). */
  context: Context;
}

/** A handler of operation type O. */
export type OperationHandler<O, Context = undefined> = (input: OperationInput<O, Context>) => OperationOutput<O> | Promise<OperationOutput<O>>;

/** One handler for every operation of a document's `operations` types (default: this API's). */
export type Handlers<Ops = ApiOperations, Context = undefined> = { [K in keyof Ops]: OperationHandler<Ops[K], Context> };

// The same, keyed by this API's operationIds.
type Op<K extends OperationId> = ApiOperations[K];
/** Validated path parameters of operation K. */
export type PathParams<K extends OperationId> = OperationPath<Op<K>>;
/** Validated JSON body of operation K (`undefined` for operations without one). */
export type RequestBody<K extends OperationId> = OperationBody<Op<K>>;
/** The 200 body of operation K. */
export type SuccessBody<K extends OperationId> = OperationSuccessBody<Op<K>>;
/** A typed result of operation K. */
export type HandlerResult<K extends OperationId> = OperationResult<Op<K>>;
/** What a handler of operation K receives. */
export type HandlerInput<K extends OperationId, Context = undefined> = OperationInput<Op<K>, Context>;
/** What a handler of operation K may return: its 200 body, or a typed result. */
export type HandlerOutput<K extends OperationId> = OperationOutput<Op<K>>;
/** A handler of operation K. */
export type Handler<K extends OperationId, Context = undefined> = OperationHandler<Op<K>, Context>;
