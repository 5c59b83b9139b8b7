import { createApiClient } from "@authsvc/app-api-contract";

const api = createApiClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });
const { data, error } = await api.GET("/widgets/{id}", {
  params: { path: { id: "wgt_5a3c8e1f7b92" } },
});
if (error) throw new Error(`${error.code}: ${error.detail}`);
console.log(data.result.name, data.result.domain.href);
