// An answer given before the body was read closes the connection, wherever the layer is
// served: kept alive, Node read and discarded a 10 GB declared body after a 401 until the
// request timeout (gigabytes for nothing; `npm run bench:unread-body` measures it). The
// client here writes as fast as the server takes it and gives up at 64 MB: a server that
// keeps reading fails in well under a second, one that closes is done within a few kB.
// Bodies declared within the body limit keep the connection (Node discards them, bounded).
import { afterAll, describe, expect, it } from "vitest";
import { appA } from "../../support/demo.js";
import { hostNames, startHost, type Host } from "../../support/hosts.js";
import { startServer, type RunningServer } from "../../support/server.js";
import { sendUnreadBody } from "../../support/unread-body.js";

const limits = { maxBytes: 64 * 2 ** 20, maxMs: 15_000 };
const provider = "/sms/providers/sms_2c7e9b4f1a6d";
const started: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(started.map((host) => host.close())));

describe.each(hostNames)("served by %s: a 10 GB body declared without credentials", (name) => {
  it("is answered 401 and its connection closed, the server reading a bounded part of it", async () => {
    const host: Host = await startHost(name);
    started.push(host);
    const result = await sendUnreadBody(host.origin, `${host.base}${provider}`, limits);
    expect(result).toMatchObject({ statusLine: "HTTP/1.1 401 Unauthorized", connection: "close", closedBy: "server" });
    expect(result.bytesWritten).toBeLessThan(limits.maxBytes);
  });
});

describe("the reference server's other answers before the body", () => {
  let server: RunningServer;
  const origin = () => new URL(server.url).origin;
  const bearer = `Authorization: Bearer ${appA.apiKey}`;

  it.each([
    ["an unknown path: 404", "PUT", "/v1/nothing-here", [], 10_000_000_000, "404 Not Found"],
    ["a method the path does not serve: 405", "POST", `/v1${provider}`, [], 10_000_000_000, "405 Method Not Allowed"],
    ["with credentials, refused by its declared length: 413", "PUT", `/v1${provider}`, [bearer], 10_000_000_000, "413 Payload Too Large"],
    ["sent to a GET, with credentials: its 200", "GET", "/v1/widgets/wgt_5a3c8e1f7b92", [bearer], 10_000_000_000, "200 OK"],
    ["chunked (no declared length), without credentials: 401", "PUT", `/v1${provider}`, [], "chunked", "401 Unauthorized"],
  ] as const)("%s, connection closed", async (_name, method, path, headers, declaredBytes, status) => {
    server ??= await startServer({ rateLimit: false });
    started.push(server);
    const result = await sendUnreadBody(origin(), path, { ...limits, method, headers: [...headers], declaredBytes });
    expect(result).toMatchObject({ statusLine: `HTTP/1.1 ${status}`, connection: "close", closedBy: "server" });
    expect(result.bytesWritten).toBeLessThan(limits.maxBytes);
  });

  it("past the failed-authentication limit: 429, connection closed", async () => {
    const limited = await startServer({ failedAuthLimit: { limit: 1, windowMs: 60_000 } });
    started.push(limited);
    const at = new URL(limited.url).origin;
    expect((await sendUnreadBody(at, `/v1${provider}`, limits)).statusLine).toBe("HTTP/1.1 401 Unauthorized");
    expect(await sendUnreadBody(at, `/v1${provider}`, limits)).toMatchObject({ statusLine: "HTTP/1.1 429 Too Many Requests", connection: "close", closedBy: "server" });
  });

  // Node discards a body declared within the limit (at most what the layer would read): a pooled connection survives a 401.
  it("a request whose body was read, that has none, or whose unread body is declared within the body limit, keeps its connection", async () => {
    server ??= await startServer({ rateLimit: false });
    started.push(server);
    const put = await fetch(`${server.url}${provider}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${appA.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Primary gateway" }),
    });
    expect(put.status).toBe(200);
    expect(put.headers.get("connection")).toBe("keep-alive");
    const unauthorized = await fetch(`${server.url}${provider}`, { method: "PUT", headers: { "content-type": "application/json" }, body: "x".repeat(90_000) });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("connection")).toBe("keep-alive");
    const unknown = await fetch(`${server.url}/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("connection")).toBe("keep-alive");
  });
});
