// The TanStack Query layer a React app builds over the package's client with
// openapi-react-query: createApiClient's result goes to createQueryClient as it is (it is an
// openapi-fetch Client; no cast), and each hook's data and error are the document's types.
// The return types are spelt out so that tsc fails here, in the app, if they ever loosen.
import { createApiClient, nextPage, type components, type Problem } from "@authsvc/app-api-contract";
import type { InfiniteData, UseInfiniteQueryResult, UseQueryResult } from "@tanstack/react-query";
import createQueryClient from "openapi-react-query";

type Schemas = components["schemas"];

export function createQueries(baseUrl: string, apiKey: string) {
  const $api = createQueryClient(createApiClient({ baseUrl, apiKey }));

  return {
    /** For a QueryClient outside React (a route loader, prefetching): the hooks' own query function and key. */
    widgetQuery: (id: string) => $api.queryOptions("get", "/widgets/{id}", { params: { path: { id } } }),

    useWidget: (id: string): UseQueryResult<Schemas["WidgetReadResponse"], Problem> => $api.useQuery("get", "/widgets/{id}", { params: { path: { id } } }),

    /** Every page of the webhook list; the next page by nextPage(), the rule paginate() walks by. */
    useWebhooks: (): UseInfiniteQueryResult<InfiniteData<Schemas["WebhookFindResponse"]>, Problem> =>
      $api.useInfiniteQuery(
        "get",
        "/webhooks",
        { params: { query: { limit: 50 } } },
        { pageParamName: "page", initialPageParam: 1, getNextPageParam: (last) => nextPage(last) },
      ),

    /** Switches a provider off; what it answers and how it fails are the document's types. */
    useDeactivateSmsProvider: (id: string) => {
      const save = $api.useMutation("put", "/sms/providers/{id}");
      const saved: Schemas["SmsProviderUpdateResponse"] | undefined = save.data;
      const failed: Problem | null = save.error;
      return { deactivate: () => save.mutate({ params: { path: { id } }, body: { is_active: false } }), saved, failed, isPending: save.isPending };
    },

    /** The document's parameters only: a string `limit` does not compile. */
    useWebhooksWrongly: () =>
      // @ts-expect-error `limit` is an integer in the document
      $api.useQuery("get", "/webhooks", { params: { query: { limit: "50" } } }),
  };
}

/** A client made without apiSecret: the operation that needs the key pair is not there. */
export function withoutSecret(baseUrl: string, apiKey: string) {
  const $api = createQueryClient(createApiClient({ baseUrl, apiKey }));
  // @ts-expect-error POST /notifications needs the key pair (createApiClient's apiSecret)
  return $api.useMutation("post", "/notifications");
}
