import { createApiClient } from "@authsvc/app-api-contract";

const api = createApiClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });
const { data, error } = await api.GET("/webhooks/{id}", {
  params: { path: { id: "whk_3a7f1c9e5b2d" } },
});
if (error) throw new Error(`${error.code}: ${error.detail}`);
console.log(data.result.event, "->", data.result.url);
