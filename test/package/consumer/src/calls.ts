// Five calls a frontend makes, through the package's client; only the base URL differs
// between the mock and the reference server.
import { createApiClient, paginate } from "@authsvc/app-api-contract";

export interface CallResults {
  widget: { status: number; id: string | undefined };
  webhooks: { ids: string[] };
  smsProvider: { status: number; id: string | undefined };
  notification: { status: number; state: string | undefined };
  missing: { status: number; code: string | undefined };
}

export async function runCalls(baseUrl: string, apiKey: string, apiSecret: string): Promise<CallResults> {
  const api = createApiClient({ baseUrl, apiKey, apiSecret });

  const widget = await api.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } });

  const ids: string[] = [];
  for await (const webhook of paginate(api, "/webhooks", { query: { limit: 10 } })) ids.push(webhook.id);

  const sms = await api.PUT("/sms/providers/{id}", { params: { path: { id: "sms_9e4a1d7c3b2f" } }, body: {} });

  const notification = await api.POST("/notifications", {
    body: { type: "SIMPLE", title: "Hello", content: "Hi there", broadcast: true },
  });

  // The mock answers any well-formed id with the example; Prefer asks it for the 404 the
  // server gives an unknown id (the server ignores Prefer).
  const missing = await api.GET("/webhooks/{id}", {
    params: { path: { id: "whk_000000000000" } },
    headers: { Prefer: "code=404" },
  });

  return {
    widget: { status: widget.response.status, id: widget.data?.result.id },
    webhooks: { ids },
    smsProvider: { status: sms.response.status, id: sms.data?.result.id },
    notification: { status: notification.response.status, state: notification.data?.result.status },
    missing: { status: missing.response.status, code: missing.error?.code },
  };
}
