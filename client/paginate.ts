// Walks the pages of a list operation: an async iterator over its records that asks for the
// next page until `meta.current_page` reaches `meta.page_count`. Which paths are lists, and
// what their records are, comes from the generated types: any GET whose 200 has `meta`.
import type { paths } from "../generated/schema.js";
import type { Problem } from "./problem.js";

type PageMeta = { current_page: number; page_count: number };

type ListBody<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { "application/json": infer Body } } } };
}
  ? Body
  : never;

/** The paths of the paged lists: GET /users/{id}/activity, /webhooks/{id}/history, /webhooks, /reports/encryption. */
export type ListPath = { [P in keyof paths]: ListBody<P> extends { meta: PageMeta; result: unknown[] } ? P : never }[keyof paths];

/** One record of the list at `P`, as its `result` array holds it. */
export type ListRecord<P extends ListPath> = ListBody<P> extends { result: (infer R)[] } ? R : never;

type Parameters<P extends ListPath> = paths[P] extends { get: { parameters: infer Params } } ? Params : never;

/** The parameters of the first page: the path's, and its query (a `page` says where to start). */
export type PaginateParams<P extends ListPath> = Omit<Parameters<P>, "header" | "cookie" | "query"> & {
  query?: Parameters<P> extends { query?: infer Q } ? Q : never;
};

/** A page answered with an error: the walk stops and throws it. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
    readonly page: number,
    /** The X-Request-Id of the page's request, to quote when reporting it (undefined only if neither side set one). */
    readonly requestId?: string,
  ) {
    super(`page ${page} answered ${status}${problem ? ` ${problem.code}: ${problem.detail}` : ""}${requestId ? ` (X-Request-Id ${requestId})` : ""}`);
    this.name = "PageError";
  }
}

/**
 * The page after `body`, or undefined after the last one: the rule `paginate()` walks by,
 * for TanStack Query's `getNextPageParam` (openapi-react-query's `useInfiniteQuery` with
 * `pageParamName: "page"`, docs/client.md).
 */
export function nextPage(body: { meta: PageMeta; result: readonly unknown[] }): number | undefined {
  return body.meta.current_page >= body.meta.page_count || body.result.length === 0 ? undefined : body.meta.current_page + 1;
}

type PageResult = { data?: { result: unknown[]; meta: PageMeta }; error?: unknown; response: Response; requestId?: string };

/** The client's GET, as far as the walk uses it (any client of this package fits). */
export interface PagingClient {
  GET(path: never, init: never): Promise<unknown>;
}

/**
 * Yields every record of a list, page after page (`limit` 100 unless the query says
 * otherwise). Records are newest first: one added while the walk runs shifts later pages,
 * so a walk over a changing list may see a record twice or miss one.
 */
export async function* paginate<P extends ListPath>(
  client: PagingClient,
  path: P,
  params: PaginateParams<P> = {} as PaginateParams<P>,
  init: { signal?: AbortSignal } = {},
): AsyncGenerator<ListRecord<P>, void, undefined> {
  const get = client.GET as unknown as (path: string, init: object) => Promise<PageResult>;
  const query: Record<string, unknown> = { limit: 100, ...(params.query ?? {}) };
  for (let page = (query.page as number | undefined) ?? 1; ; page += 1) {
    const { data, error, response, requestId } = await get.call(client, path, { ...init, params: { ...params, query: { ...query, page } } });
    if (!data) {
      // This package's client puts the id on the result; any other client's server echoes it.
      const id = requestId ?? response.headers.get("x-request-id") ?? undefined;
      throw new PageError(response.status, response.ok ? undefined : (error as Problem | undefined), page, id);
    }
    yield* data.result as ListRecord<P>[];
    if (nextPage(data) === undefined) return;
  }
}
