import { createApiClient } from "@authsvc/app-api-contract";

const api = createApiClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });
const { data, error } = await api.GET("/reports/encryption", {
  params: {
    query: { country: "ES", device_type: "ANDROID", start_date: 1767225600, end_date: 1798761599, limit: 10 },
  },
});
if (error) throw new Error(`${error.code}: ${error.detail}`);
console.log(
  data.meta,
  data.result.map((r) => r.id),
);
