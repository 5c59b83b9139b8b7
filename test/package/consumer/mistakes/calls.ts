// Calls with one misspelt key each, compiled on their own (tsconfig.mistakes.json) by every
// TypeScript the consumer test runs: each must be an error that names the key, not only "No
// overload matches this call" (test/package/consumer-types.test.ts reads the messages).
import { createApiClient } from "@authsvc/app-api-contract";

const api = createApiClient({ baseUrl: "http://127.0.0.1:4010/v1", apiKey: "ak_live_acme_4f9e2b7c1d8a6e3f" });

export const path = () => api.GET("/widgetz/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } });
export const pathParam = () => api.GET("/widgets/{id}", { params: { path: { idd: "wgt_5a3c8e1f7b92" } } });
export const query = () => api.GET("/webhooks", { params: { query: { limt: 10 } } });
export const body = () => api.PUT("/sms/providers/{id}", { params: { path: { id: "sms_9e4a1d7c3b2f" } }, body: { is_activ: false } });
