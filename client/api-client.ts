// The type the client is handed out as: openapi-fetch's own `Client`, so it fits wherever
// one is taken (openapi-react-query's createClient, wrappers of the ecosystem), with call
// signatures that check a call's options against the operation, extra keys included.
// openapi-fetch infers the options as a generic and then allows any extra key
// (openapi-ts/openapi-typescript#2329), so a misspelt query parameter or body field would
// compile and be sent. Here the options are a plain parameter of the operation's type, and
// the compiler's excess-property check refuses a name the document does not have. Every
// result also carries the call's `requestId`.
import type { Client, ClientPathsWithMethod, FetchOptions, FetchResponse } from "openapi-fetch";

type Method = "get" | "put" | "post" | "delete" | "patch";

/** The operation object of `Path` + `Method` in `Paths`. */
type OperationOf<Paths, Path, M extends Method> = Path extends keyof Paths ? (M extends keyof Paths[Path] ? Paths[Path][M] : never) : never;

type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

/** The X-Request-Id the call was sent with (the caller's, or a fresh UUID). */
export interface WithRequestId {
  requestId: string;
}

/** What a call resolves to: `{ data, error, response, requestId }`, as openapi-fetch gives it for JSON. */
export type ApiResult<Op> = Op extends Record<string | number, any> ? FetchResponse<Op, {}, `${string}/${string}`> & WithRequestId : never;

/** The options argument: required when the operation has a required parameter or body. */
type InitArgs<Op> = [RequiredKeys<FetchOptions<Op>>] extends [never] ? [init?: FetchOptions<Op>] : [init: FetchOptions<Op>];

/** One HTTP method of the client, for the paths of `Paths` that serve it. */
export type ApiClientMethod<Paths extends {}, M extends Method> = <Path extends ClientPathsWithMethod<Client<Paths>, M>>(
  url: Path,
  ...init: InitArgs<OperationOf<Paths, Path, M>>
) => Promise<ApiResult<OperationOf<Paths, Path, M>>>;

/**
 * A client for `Paths`: `{ data, error, response, requestId }` per call, `data` and `error`
 * typed from the document. It is an openapi-fetch `Client<Paths>` (assignable without a cast).
 */
export interface ApiClient<Paths extends {}> extends Omit<Client<Paths>, Uppercase<Method>> {
  // Each method has two signatures. The second is the one calls use. The first makes the
  // client assignable to openapi-fetch's `Client` (whose generic signatures the compiler
  // cannot relate to the second) and can never be called: its `this` is `never`, so a call
  // that fails the other signature is an error, not a fallback to a looser check. It comes
  // first because TypeScript 7 reports only the last overload's error when no overload
  // matches: last, the real signature's error names the misspelt key (`'idd' does not exist
  // in type '{ id: string; }'`), where first it said only "'this' … 'never'". Inference from
  // an overloaded method also reads the last signature, so openapi-react-query's
  // `createClient(client)` still infers the paths from it.
  GET(this: never, url: any, ...init: any[]): Promise<any>;
  GET<Path extends ClientPathsWithMethod<Client<Paths>, "get">>(
    url: Path,
    ...init: InitArgs<OperationOf<Paths, Path, "get">>
  ): Promise<ApiResult<OperationOf<Paths, Path, "get">>>;
  PUT(this: never, url: any, ...init: any[]): Promise<any>;
  PUT<Path extends ClientPathsWithMethod<Client<Paths>, "put">>(
    url: Path,
    ...init: InitArgs<OperationOf<Paths, Path, "put">>
  ): Promise<ApiResult<OperationOf<Paths, Path, "put">>>;
  POST(this: never, url: any, ...init: any[]): Promise<any>;
  POST<Path extends ClientPathsWithMethod<Client<Paths>, "post">>(
    url: Path,
    ...init: InitArgs<OperationOf<Paths, Path, "post">>
  ): Promise<ApiResult<OperationOf<Paths, Path, "post">>>;
  DELETE(this: never, url: any, ...init: any[]): Promise<any>;
  DELETE<Path extends ClientPathsWithMethod<Client<Paths>, "delete">>(
    url: Path,
    ...init: InitArgs<OperationOf<Paths, Path, "delete">>
  ): Promise<ApiResult<OperationOf<Paths, Path, "delete">>>;
  PATCH(this: never, url: any, ...init: any[]): Promise<any>;
  PATCH<Path extends ClientPathsWithMethod<Client<Paths>, "patch">>(
    url: Path,
    ...init: InitArgs<OperationOf<Paths, Path, "patch">>
  ): Promise<ApiResult<OperationOf<Paths, Path, "patch">>>;
}
