import { createApiClient } from "@authsvc/app-api-contract";

const api = createApiClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });
const { data, error } = await api.GET("/webhooks/{id}/history", {
  params: { path: { id: "whk_3a7f1c9e5b2d" }, query: { limit: 10, page: 1 } },
});
if (error) throw new Error(`${error.code}: ${error.detail}`);
console.log(data.result.map((d) => `${d.created_at} ${d.status} ${d.response_code ?? "-"}`));
