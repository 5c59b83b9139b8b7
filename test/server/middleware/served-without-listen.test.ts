// The entry served without listen(): `app.listen()` or `createServer(app)` keeps Node's
// timeouts (a trickled request open for minutes) and lets Node send `100 Continue` before
// the credentials are checked. The app says so once, in one log line, on its first request;
// served by listen() (or a server given the same settings) it says nothing.
import { createServer, type Server } from "node:http";
import { createServer as createHttp2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createReferenceApp } from "../../../server/reference-server.js";
import { listen } from "../../../server/contract-layer/listen.js";
import { missingProtections } from "../../../server/middleware/served-without-listen.js";
import { createStore } from "../../../server/store/memory.js";
import { loadSeed } from "../../../server/seed/load.js";
import { captureLogs } from "../../support/logs.js";

const servers: { close(): unknown }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** The reference app with its log lines in memory. */
function appWithLogs() {
  const logs = captureLogs("warn");
  return { app: createReferenceApp({ store: createStore(loadSeed()), logger: logs.logger }), logs };
}

async function serveWith(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push({ close: () => new Promise((resolve) => server.close(resolve)) });
  server.closeIdleConnections();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const warnings = (logs: ReturnType<typeof captureLogs>) => logs.records.filter((record) => String(record.msg).includes("served without listen()"));

describe("the entry served without listen()", () => {
  it("app.listen(): one warning on the first request naming both gaps, none after", async () => {
    const { app, logs } = appWithLogs();
    const host = express().use(app);
    const origin = await serveWith(host.listen(0, "127.0.0.1"));
    for (let i = 0; i < 3; i++) await (await fetch(`${origin}/v1/widgets/wgt_5a3c8e1f7b92`)).arrayBuffer();
    expect(warnings(logs).map((record) => record.msg)).toEqual([
      "The API is served without listen() from @authsvc/app-api-server/express: a request may take 300 s to arrive (listen(): 30 s); Node answers `Expect: 100-continue` before the credentials are checked. Serve the app (or the host app it is mounted in) with listen(app, { port }) (docs/backend.md, Lifecycle).",
    ]);
  });

  it("a server with checkContinue but Node's timeouts is still named", async () => {
    const { app, logs } = appWithLogs();
    const server = createServer(app);
    server.on("checkContinue", (req, res) => app(req, res));
    const origin = await serveWith(server);
    await (await fetch(`${origin}/v1/widgets/wgt_5a3c8e1f7b92`)).arrayBuffer();
    expect(warnings(logs)).toHaveLength(1);
    expect(warnings(logs)[0]!.msg).not.toContain("100-continue");
  });

  it("listen(): no warning", async () => {
    const { app, logs } = appWithLogs();
    const listening = await listen(app, { idleGraceMs: 0 });
    servers.push(listening);
    await (await fetch(`${listening.origin}/v1/widgets/wgt_5a3c8e1f7b92`)).arrayBuffer();
    expect(warnings(logs)).toEqual([]);
  });
});

describe("missingProtections", () => {
  /** A server never listened on, with listen()'s `checkContinue` and the given timeouts. */
  const serverWith = (requestTimeout: number, headersTimeout: number) => {
    const server = createServer();
    server.on("checkContinue", () => {});
    server.requestTimeout = requestTimeout;
    server.headersTimeout = headersTimeout;
    return server;
  };

  it("nothing to judge without a server (an injected request) or with one that has no request timeout (HTTP/2)", () => {
    expect(missingProtections(undefined)).toEqual([]);
    expect(missingProtections(createHttp2Server() as unknown as Server)).toEqual([]);
  });

  it("a whole-request timeout up to 60 s is the entry's; past 60 s, or none (0), is named", () => {
    expect(missingProtections(serverWith(60_000, 60_000))).toEqual([]);
    expect(missingProtections(serverWith(61_000, 60_000))).toEqual(["a request may take 61 s to arrive (listen(): 30 s)"]);
    // Over 60 s by a millisecond reads as over, not as the 60 s that is taken.
    expect(missingProtections(serverWith(60_001, 60_000))).toEqual(["a request may take 61 s to arrive (listen(): 30 s)"]);
    // Node's defaults.
    expect(missingProtections(serverWith(300_000, 60_000))).toEqual(["a request may take 300 s to arrive (listen(): 30 s)"]);
    // The whole request within 30 s bounds its headers too, whatever headersTimeout says.
    expect(missingProtections(serverWith(30_000, 61_000))).toEqual([]);
    // No request timeout: a body may trickle in forever, even with the headers bounded.
    const unbounded = "a request may take any time (no request timeout) to arrive (listen(): 30 s)";
    expect(missingProtections(serverWith(0, 30_000))).toEqual([unbounded]);
    expect(missingProtections(serverWith(0, 0))).toEqual([unbounded]);
  });
});
