// The TanStack Query recipe of docs/frontend.md (matrix/query-client.ts, written from the doc
// as it is) with openapi-react-query's hooks over the package's client, against the package's
// MSW handlers, at vitest's default timeout: a 503 without Retry-After settles after the
// client's two requests; the hooks page and write; without the recipe the retries stack.
import { createApiClient, nextPage } from "@authsvc/app-api-contract";
import { createHandlers, documentedResponse, override } from "@authsvc/app-api-mock/msw";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import { setupServer } from "msw/node";
import createQueryClient from "openapi-react-query";
import { createElement, type ReactNode } from "react";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { queryClient } from "./query-client.js";

const baseUrl = process.env.API_ORIGIN === "same" ? `${location.origin}/v1` : "https://api.example.test/v1";
const server = setupServer(...createHandlers({ baseUrl, pages: 3 }));
const $api = createQueryClient(createApiClient({ baseUrl, apiKey: "ak_test" }));
const unhandled = { onUnhandledFrame: "error", onUnhandledRequest: "error" } as const;
beforeAll(() => server.listen(unhandled));
afterEach(() => {
  server.resetHandlers();
  queryClient.clear();
});
afterAll(() => server.close());

const wrapperOf =
  (client: QueryClient) =>
  ({ children }: { children: ReactNode }) =>
    createElement(QueryClientProvider, { client }, children);

/** Every GET /widgets/{id} answered the documented 503 without its Retry-After, counted. */
function unavailable() {
  const seen = { requests: 0 };
  server.use(
    override("readWidget", baseUrl, () => {
      seen.requests += 1;
      const response = documentedResponse("readWidget", { status: 503 });
      response.headers.delete("Retry-After");
      return response;
    }),
  );
  return seen;
}

const readWidget = () => $api.useQuery("get", "/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } });

test("with the recipe, useQuery on a 503 without Retry-After is in error after the client's 2 requests", async () => {
  const seen = unavailable();
  const started = performance.now();
  const { result } = renderHook(readWidget, { wrapper: wrapperOf(queryClient) });
  await waitFor(() => expect(result.current.isError).toBe(true), { timeout: 4_000 });
  const ms = performance.now() - started;
  console.log(`TanStack recipe: a 503 without Retry-After settled after ${seen.requests} requests in ${Math.round(ms)} ms`);
  expect(result.current.error).toMatchObject({ code: "service_unavailable" });
  expect(seen.requests).toBe(2);
});

test("without it (a default QueryClient), TanStack Query retries on top of the client's retries", async () => {
  const stacked = new QueryClient();
  const seen = unavailable();
  const { result, unmount } = renderHook(readWidget, { wrapper: wrapperOf(stacked) });
  // The client's two requests, then TanStack Query's first retry asks again (about 1 s later).
  await waitFor(() => expect(seen.requests).toBeGreaterThan(2), { timeout: 4_000 });
  expect(result.current.isError).toBe(false);
  expect(result.current.failureCount).toBeGreaterThanOrEqual(1);
  unmount();
  stacked.clear();
});

test("useInfiniteQuery loads every page of a list the handlers spread over 3 pages", async () => {
  const { result } = renderHook(
    () =>
      $api.useInfiniteQuery(
        "get",
        "/webhooks",
        { params: { query: { limit: 10 } } },
        { pageParamName: "page", initialPageParam: 1, getNextPageParam: (last) => nextPage(last) },
      ),
    { wrapper: wrapperOf(queryClient) },
  );
  await waitFor(() => expect(result.current.isSuccess).toBe(true));
  while (result.current.hasNextPage) {
    await result.current.fetchNextPage();
    await waitFor(() => expect(result.current.isFetchingNextPage).toBe(false));
  }
  const ids = result.current.data!.pages.flatMap((page) => page.result.map((webhook) => webhook.id));
  expect(result.current.data!.pages).toHaveLength(3);
  expect(new Set(ids).size).toBe(21);
});

test("useMutation answers the write as the mock does", async () => {
  const { result } = renderHook(() => $api.useMutation("put", "/sms/providers/{id}"), { wrapper: wrapperOf(queryClient) });
  result.current.mutate({ params: { path: { id: "sms_9e4a1d7c3b2f" } }, body: { is_active: false } });
  await waitFor(() => expect(result.current.isSuccess).toBe(true));
  expect(result.current.data?.result).toMatchObject({ id: "sms_9e4a1d7c3b2f", is_active: false });
});
