// The page script of browser.test.ts, bundled by esbuild for Chromium: the calls a frontend
// makes, run in a page where the test has deleted AbortSignal.any and AbortSignal.timeout
// (as in Safari < 17.4, Chrome < 116, Firefox < 124).
import { createApiClient, paginate } from "../../client/index.js";

/** The name of the error a call rejects with, or "answered". */
const failure = (call: Promise<unknown>) =>
  call.then(
    () => "answered",
    (error: Error) => error.name,
  );

/**
 * `hangUrl`: a base URL whose server never answers, for the timed-out call; `siteUrl`: the
 * page's own origin, whose /redirect/ answers a 302 to the mock, /endless/ a body that never
 * ends and /big/ a 5 MiB body.
 */
async function runCalls(baseUrl: string, apiKey: string, hangUrl: string, siteUrl: string) {
  const api = createApiClient({ baseUrl, apiKey, timeoutMs: 10_000 });
  const widget = await api.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } });
  const webhooks: string[] = [];
  for await (const webhook of paginate(api, "/webhooks")) webhooks.push(webhook.id);
  const controller = new AbortController();
  const cancelled = api.GET("/webhooks", { signal: controller.signal }).then(
    () => "answered",
    (error: Error) => error.name,
  );
  controller.abort();
  const timedOut = await createApiClient({ baseUrl: hangUrl, apiKey, timeoutMs: 200, retry: false })
    .GET("/webhooks")
    .then(
      () => "answered",
      (error: Error) => error.name,
    );
  // The endless body needs its timeout to fire; the others must settle on their own rule
  // first, so they get time a loaded machine needs to read 1 MiB (500 ms gave "big" a TimeoutError at load 12).
  const hostile = (path: string, timeoutMs = 10_000) => createApiClient({ baseUrl: `${siteUrl}${path}/v1`, apiKey, timeoutMs, retry: false }).GET("/webhooks");
  return {
    apis: { any: typeof AbortSignal.any, timeout: typeof AbortSignal.timeout },
    redirected: await failure(hostile("redirect")),
    endless: await failure(hostile("endless", 500)),
    big: await failure(hostile("big")),
    widget: { status: widget.response.status, id: widget.data?.result.id, requestId: widget.requestId, echoed: widget.response.headers.get("x-request-id") },
    webhooks,
    cancelled: await cancelled,
    timedOut,
  };
}

(globalThis as unknown as { runCalls: typeof runCalls }).runCalls = runCalls;
