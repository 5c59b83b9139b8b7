import { createApiClient } from "@authsvc/app-api-contract";

const api = createApiClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });
const { data, error } = await api.GET("/webhooks", { params: { query: { limit: 10, page: 1 } } });
if (error) throw new Error(`${error.code}: ${error.detail}`);
console.log(
  data.meta.total_count,
  data.result.map((w) => `${w.event} -> ${w.url}`),
);
