// The type the client is handed out as: openapi-fetch's own client, typed so that a call's
// options are checked against the operation, extra keys included. openapi-fetch infers the
// options as a generic and then allows any extra key (openapi-ts/openapi-typescript#2329),
// so a misspelt query parameter or body field would compile and be sent. Here the options
// are a plain parameter of the operation's type, and the compiler's excess-property check
// refuses a name the document does not have. Runtime behaviour is openapi-fetch's, unchanged.
import type { Client, ClientPathsWithMethod, FetchOptions, FetchResponse, Middleware } from "openapi-fetch";

type Method = "get" | "put" | "post" | "delete" | "patch";

/** The operation object of `Path` + `Method` in `Paths`. */
type OperationOf<Paths, Path, M extends Method> = Path extends keyof Paths
  ? M extends keyof Paths[Path]
    ? Paths[Path][M]
    : never
  : never;

type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

/** What a call resolves to: `{ data, error, response }`, as openapi-fetch gives it for JSON. */
type ResponseOf<Op> = Op extends Record<string | number, any> ? FetchResponse<Op, {}, `${string}/${string}`> : never;

/** The options argument: required when the operation has a required parameter or body. */
type InitArgs<Op> = [RequiredKeys<FetchOptions<Op>>] extends [never] ? [init?: FetchOptions<Op>] : [init: FetchOptions<Op>];

/** One HTTP method of the client, for the paths of `Paths` that serve it. */
export type ApiClientMethod<Paths extends {}, M extends Method> = <Path extends ClientPathsWithMethod<Client<Paths>, M>>(
  url: Path,
  ...init: InitArgs<OperationOf<Paths, Path, M>>
) => Promise<ResponseOf<OperationOf<Paths, Path, M>>>;

/** A client for `Paths`: `{ data, error, response }` per call, `data` and `error` typed from the document. */
export interface ApiClient<Paths extends {}> {
  GET: ApiClientMethod<Paths, "get">;
  PUT: ApiClientMethod<Paths, "put">;
  POST: ApiClientMethod<Paths, "post">;
  DELETE: ApiClientMethod<Paths, "delete">;
  PATCH: ApiClientMethod<Paths, "patch">;
  /** Adds openapi-fetch middleware (e.g. logging, retries). */
  use(...middleware: Middleware[]): void;
  /** Removes middleware added with `use`. */
  eject(...middleware: Middleware[]): void;
}
