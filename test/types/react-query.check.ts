// Compiled by test/types/react-query.test.ts in its own project (a browser app's DOM lib;
// React's global types would clash with the Node-only main project).
// The client in TanStack Query through openapi-react-query, as a React app writes it: the
// client goes to its createClient as is (it is an openapi-fetch Client, no cast), the hooks'
// data and error are the document's types, and an infinite list pages by `page` with the
// rule paginate() walks by (nextPage).
import createQueryClient from "openapi-react-query";
import { describe, expectTypeOf, test } from "vitest";
import { createApiClient, nextPage, type Problem } from "../../client/index.js";
import type { components } from "../../generated/schema.js";

type S = components["schemas"];
const api = createApiClient({ baseUrl: "http://127.0.0.1:4010/v1", apiKey: "k" });
const withSecret = createApiClient({ baseUrl: "http://127.0.0.1:4010/v1", apiKey: "k", apiSecret: "s" });
const $api = createQueryClient(api);
const $withSecret = createQueryClient(withSecret);

describe("openapi-react-query over the client", () => {
  test("useQuery: data and error typed from the document", () => {
    const widget = $api.useQuery("get", "/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } });
    expectTypeOf(widget.data).toEqualTypeOf<S["WidgetReadResponse"] | undefined>();
    expectTypeOf(widget.error).toExtend<Problem | null>();
  });

  test("useInfiniteQuery: one list's pages, next page by nextPage()", () => {
    const webhooks = $api.useInfiniteQuery(
      "get",
      "/webhooks",
      { params: { query: { limit: 50 } } },
      { pageParamName: "page", initialPageParam: 1, getNextPageParam: (last) => nextPage(last) },
    );
    expectTypeOf(webhooks.data?.pages).toEqualTypeOf<S["WebhookFindResponse"][] | undefined>();
  });

  test("useMutation: the operation's body; POST /notifications only on a client with the secret", () => {
    const update = $api.useMutation("put", "/sms/providers/{id}");
    update.mutate({ params: { path: { id: "sms_9e4a1d7c3b2f" } }, body: { is_active: false } });
    $withSecret.useMutation("post", "/notifications");
    // @ts-expect-error a client made without apiSecret has no POST /notifications
    $api.useMutation("post", "/notifications");
  });

  test("the document's parameters only", () => {
    // @ts-expect-error `limit` is a number
    $api.useQuery("get", "/webhooks", { params: { query: { limit: "10" } } });
  });
});
