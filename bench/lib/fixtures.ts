// What the benchmarks send and serve, taken from the document so every target answers the
// same bytes for the same request: the widget example is the body of targets (a), (b), (b2).
import { readFileSync } from "node:fs";

const document = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));

/** Path of the bundled document (what b2, the server and the mock read). */
export const documentPath = new URL("../../generated/openapi.json", import.meta.url).pathname;

/** Demo application A's credentials (the seed and the document's examples use them). */
export const demo = {
  apiKey: "ak_live_acme_4f9e2b7c1d8a6e3f",
  apiSecret: "as_live_acme_9b1e6d3f7a2c5e8b",
  widgetId: "wgt_5a3c8e1f7b92",
  smsProviderId: "sms_9e4a1d7c3b2f",
} as const;

/** The 200 body of GET /widgets/{id} for the demo widget, from the document's example. */
export const widgetBody: unknown = document.components.examples.WidgetRead.value;

export const bearer = { authorization: `Bearer ${demo.apiKey}` };
export const keyPair = { "x-api-key": demo.apiKey, "x-api-secret": demo.apiSecret };

export interface BenchRequest {
  method: "GET" | "PUT" | "POST";
  /** Path below the `/v1` base URL. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const json = { "content-type": "application/json" };

/** The four reference-server requests of target (c). */
export const serverRequests = {
  "GET widget": { method: "GET", path: `/widgets/${demo.widgetId}`, headers: bearer },
  "GET reports (filtered)": {
    method: "GET",
    path: "/reports/encryption?country=ES&device_type=ANDROID&limit=10&page=1",
    headers: bearer,
  },
  "PUT sms provider": {
    method: "PUT",
    path: `/sms/providers/${demo.smsProviderId}`,
    headers: { ...bearer, ...json },
    body: JSON.stringify({ name: "Backup gateway", countries: ["ES", "PT"], log_messages: "FULL" }),
  },
  "POST notification": {
    method: "POST",
    path: "/notifications",
    headers: { ...keyPair, ...json },
    body: JSON.stringify({
      type: "SIMPLE",
      title: "Scheduled maintenance",
      content: "Sign-in will be unavailable for thirty minutes.",
      receivers: ["usr_7d2e9a4c1b6f"],
      send_at: "now",
    }),
  },
} satisfies Record<string, BenchRequest>;

export const widgetRequest: BenchRequest = serverRequests["GET widget"];
