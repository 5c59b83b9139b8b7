// TanStack Query outside a component, as a route loader or a prefetch runs it: a QueryClient
// fetches with the query function and key openapi-react-query builds over the client, the
// same ones useWidget() runs, and keeps the answer in its cache under that key.
import { QueryClient } from "@tanstack/react-query";
import { createQueries } from "./queries.js";

export interface PrefetchResults {
  /** The widget id of the answer. */
  fetched: string;
  /** Whether the cache holds that answer under the hooks' key (useWidget() would show it without a request). */
  cached: boolean;
}

export async function runPrefetch(baseUrl: string, apiKey: string): Promise<PrefetchResults> {
  const queries = createQueries(baseUrl, apiKey);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const options = queries.widgetQuery("wgt_5a3c8e1f7b92");
  const widget = await client.fetchQuery(options);
  return { fetched: widget.result.id, cached: client.getQueryData(options.queryKey) === widget };
}
