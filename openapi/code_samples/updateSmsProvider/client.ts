import { createApiClient } from "@authsvc/app-api-contract";

const api = createApiClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });
const { data, error } = await api.PUT("/sms/providers/{id}", {
  params: { path: { id: "sms_9e4a1d7c3b2f" } },
  body: { sort: "UP", countries: ["ES", "PT", "FR"], patterns: ["+34", "+351", "+33"], log_messages: "FULL" },
});
if (error) throw new Error(`${error.code}: ${error.detail}`);
console.log(data.result.name, "is now at position", data.result.sort);
