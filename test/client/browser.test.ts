// The client in Chromium (Debian's package) with the APIs the browser baseline may lack
// deleted first (AbortSignal.any, AbortSignal.timeout; docs/client.md): a read, a paged
// walk, a cancelled call and a timed-out call all work, against the mock across origins,
// and the request id the client sent is the one the mock answered with. On the page's own
// origin, a redirect to the mock (an opaqueredirect under `redirect: "manual"`) is a
// RedirectError, a body that never ends a TimeoutError, and a 5 MiB body a ResponseTooLargeError.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { appA } from "../support/demo.js";
import { chromiumMissing, chromiumPath, realPart } from "../support/real-parts.js";

/** Why Chromium is skipped here (a contributor's machine without it); under CI its absence fails. */
const noBrowser = realPart(chromiumMissing());
let browser: Browser | undefined;
let mock: RunningMock | undefined;
let script: string;
/** The page's own origin: another port of 127.0.0.1, so every call is cross-origin (CORS). */
let site: Server | undefined;
let siteUrl: string;

beforeAll(async () => {
  if (noBrowser !== undefined) return;
  const bundled = await build({
    entryPoints: [new URL("./browser-page.ts", import.meta.url).pathname],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  script = bundled.outputFiles[0]!.text;
  // Under /hang/ nothing ever answers: the timed-out call waits there, so the timeout cannot
  // lose a race against a fast answer on a busy machine.
  site = createServer((req, res) => {
    if (req.url?.startsWith("/hang/")) return;
    if (req.url?.startsWith("/redirect/")) return res.writeHead(302, { location: `${mock!.url}/webhooks` }).end();
    if (req.url?.startsWith("/endless/")) return res.writeHead(200, { "content-type": "application/json" }).write("[");
    if (req.url?.startsWith("/big/")) return res.writeHead(200, { "content-type": "application/json" }).end(`"${"a".repeat(5 * 1024 * 1024)}"`);
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>app</title>");
  });
  await new Promise<void>((resolve) => site!.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  [mock, browser] = await Promise.all([startMock(), chromium.launch({ executablePath: chromiumPath, args: ["--headless", "--no-sandbox", "--disable-gpu"] })]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await mock?.close();
  site?.closeAllConnections();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
});

it.skipIf(noBrowser !== undefined)("runs without AbortSignal.any and AbortSignal.timeout", { timeout: 60_000 }, async () => {
  const page = await browser!.newPage();
  await page.addInitScript(() => {
    delete (AbortSignal as { any?: unknown }).any;
    delete (AbortSignal as { timeout?: unknown }).timeout;
  });
  await page.goto(siteUrl);
  await page.addScriptTag({ content: script });
  const outcome = await page.evaluate(
    ([baseUrl, apiKey, hangUrl, siteUrl]) =>
      (globalThis as unknown as { runCalls(baseUrl: string, apiKey: string, hangUrl: string, siteUrl: string): Promise<unknown> }).runCalls(
        baseUrl!,
        apiKey!,
        hangUrl!,
        siteUrl!,
      ),
    [mock!.url, appA.apiKey, `${siteUrl}hang/v1`, siteUrl],
  );
  console.log(`Chromium ${browser!.version()}, AbortSignal.any and .timeout deleted:`, JSON.stringify(outcome));
  expect(outcome).toMatchObject({
    apis: { any: "undefined", timeout: "undefined" },
    widget: { status: 200, id: "wgt_5a3c8e1f7b92" },
    webhooks: ["whk_8d1f6b3a9c4e", "whk_3a7f1c9e5b2d"],
    cancelled: "AbortError",
    timedOut: "TimeoutError",
    redirected: "RedirectError",
    endless: "TimeoutError",
    big: "ResponseTooLargeError",
  });
  const { widget } = outcome as { widget: { requestId: string; echoed: string } };
  expect(widget.requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(widget.echoed).toBe(widget.requestId);
  await page.close();
});
