import { createApiClient } from "@authsvc/app-api-contract";

// POST /notifications takes X-Api-Key and X-Api-Secret: give the client both.
const api = createApiClient({
  baseUrl: process.env.BASE_URL!,
  apiKey: process.env.API_KEY!,
  apiSecret: process.env.API_SECRET!,
});
const { data, error } = await api.POST("/notifications", {
  body: {
    name: "Maintenance notice",
    type: "SIMPLE",
    title: "Scheduled maintenance",
    content: "Sign-in will be unavailable on 15 January 2030 from 09:00 to 09:30 UTC.",
    level: 1,
    receivers: ["usr_7d2e9a4c1b6f", "tomas.reyes@acme-shop.example"],
    send_at: 1894698000,
  },
});
if (error) throw new Error(`${error.code}: ${error.detail}`);
console.log(data.result.id, data.result.status, data.result.send_at);
