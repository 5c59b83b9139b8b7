// The loopback proxy between `redocly respect` and the target (conformance/respect-proxy.ts)
// is no forward proxy for the other processes of the machine: only an origin-form request
// whose path starts with the run's token is sent on, and only to the target's origin; a
// body over the cap or a request that is not received in time is refused. Each refusal is
// a one-line text answer naming why, sent over raw sockets here as another local process
// would send them, and neither the target nor another origin gets a request.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxRequestBytes, startRespectProxy, type RespectProxy } from "../../conformance/respect-proxy.js";

interface Recorder {
  origin: string;
  requests: { method: string; url: string; headers: IncomingMessage["headers"]; bytes: number }[];
  server: Server;
}

async function recorder(): Promise<Recorder> {
  const requests: Recorder["requests"] = [];
  const server = createServer(async (request, response) => {
    let bytes = 0;
    for await (const chunk of request) bytes += (chunk as Buffer).byteLength;
    requests.push({ method: request.method!, url: request.url!, headers: request.headers, bytes });
    response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

/** Sends `head` (and then `body`, if any) on a fresh socket and resolves with all the proxy wrote before it closed. */
function raw(port: number, head: string, body?: (write: (chunk: string | Buffer) => boolean) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(head);
      body?.((chunk) => socket.write(chunk));
    });
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" || error.code === "EPIPE" ? undefined : reject(error)));
    socket.on("close", () => resolve(answer));
  });
}

/** `413 respect proxy: refused: …`: the status and the body of a refusal, which must be one line. */
function refusal(answer: string): string {
  const [head, body] = answer.split("\r\n\r\n") as [string, string];
  expect(head).toMatch(/\r\nconnection: close/i);
  expect(head).toMatch(/\r\ncontent-type: text\/plain; charset=utf-8/i);
  expect(body.endsWith("\n") && !body.slice(0, -1).includes("\n"), `one line: ${JSON.stringify(body)}`).toBe(true);
  return `${head.split(" ")[1]} ${body.trimEnd()}`;
}

const timeoutMs = 1500;
let target: Recorder;
let elsewhere: Recorder;
let proxy: RespectProxy;
let port: number;
let token: string;

beforeAll(async () => {
  [target, elsewhere] = await Promise.all([recorder(), recorder()]);
  proxy = await startRespectProxy(`${target.origin}/v1`, { timeoutMs, maxBodyBytes: 65_536 });
  const base = new URL(proxy.baseUrl);
  port = Number(base.port);
  token = base.pathname.split("/")[1]!;
});
afterAll(async () => {
  await proxy?.close();
  for (const { server } of [target, elsewhere]) {
    server.closeAllConnections();
    server.close();
  }
});

const other = () => new URL(elsewhere.origin).host;

describe("the respect proxy", () => {
  it("has a base URL of loopback, an unguessable token of its own and the target's path", async () => {
    expect(proxy.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\/v1$/);
    const again = await startRespectProxy(`${target.origin}/v1`, { timeoutMs, maxBodyBytes: 65_536 });
    expect(new URL(again.baseUrl).pathname.split("/")[1]).not.toBe(token);
    await again.close();
  });

  it("sends a request under its token to the target's origin, the token taken off, the headers on", async () => {
    const answer = await fetch(`${proxy.baseUrl}/widgets/wgt_1?x=1`, { headers: { authorization: "Bearer ak_test" } });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ok: true });
    expect(target.requests.at(-1)).toMatchObject({ method: "GET", url: "/v1/widgets/wgt_1?x=1", headers: { authorization: "Bearer ak_test" } });
    expect(proxy.targetUrl(`${proxy.baseUrl}/widgets/wgt_1`)).toBe(`${target.origin}/v1/widgets/wgt_1`);
  });

  describe("refuses, with one line naming why, and sends nothing anywhere", () => {
    const before = { target: 0, elsewhere: 0 };
    beforeAll(() => {
      before.target = target.requests.length;
      before.elsewhere = elsewhere.requests.length;
    });
    afterAll(() => {
      expect(target.requests.length, "the target got no refused request").toBe(before.target);
      expect(elsewhere.requests.length, "no other origin got a request").toBe(0);
    });

    it.each([
      [
        "an absolute-form request (a forward-proxy request)",
        () => `GET http://${other()}/v1/widgets/wgt_1 HTTP/1.1\r\nHost: ${other()}\r\nAuthorization: Bearer ak_test\r\n\r\n`,
      ],
      ["an absolute-form request naming the token", () => `GET http://${other()}/${token}/v1/widgets/wgt_1 HTTP/1.1\r\nHost: ${other()}\r\n\r\n`],
    ])("%s", async (_case, head) => {
      expect(refusal(await raw(port, head()))).toBe(
        "400 respect proxy: refused: not an origin-form request target (an absolute URL or an authority: a forward-proxy request); only paths under this run's token are forwarded",
      );
    });

    it("a scheme-relative request target (//host/…)", async () => {
      expect(refusal(await raw(port, `GET //${other()}/v1/widgets/wgt_1 HTTP/1.1\r\nHost: x\r\n\r\n`))).toBe(
        "400 respect proxy: refused: a scheme-relative request target (//host/…); only origin-form paths under this run's token are forwarded",
      );
    });

    it.each([
      ["no token", () => "/v1/widgets/wgt_1"],
      ["another token of the same length", () => `/${"A".repeat(token.length)}/v1/widgets/wgt_1`],
      ["the token cut short", () => `/${token.slice(0, -1)}/v1/widgets/wgt_1`],
      ["the token and no path", () => `/${token}`],
    ])("%s", async (_case, path) => {
      expect(refusal(await raw(port, `GET ${path()} HTTP/1.1\r\nHost: x\r\n\r\n`))).toBe("403 respect proxy: refused: the path does not start with this run's token");
    });

    it.each([
      ["//host after the token", () => `/${token}//${other()}/v1/widgets/wgt_1`],
      ["/\\host after the token (a backslash is a slash to a URL parser)", () => `/${token}/\\${other()}/v1/widgets/wgt_1`],
    ])("another origin: %s", async (_case, path) => {
      expect(refusal(await raw(port, `GET ${path()} HTTP/1.1\r\nHost: x\r\n\r\n`))).toBe(
        `400 respect proxy: refused: the path after the token names another origin than the target's (${target.origin})`,
      );
    });

    it("a body declared over the cap, before reading it", async () => {
      const declared = 10_000_000_000;
      expect(refusal(await raw(port, `PUT /${token}/v1/sms/providers/sms_1 HTTP/1.1\r\nHost: x\r\nContent-Length: ${declared}\r\n\r\n`))).toBe(
        `413 respect proxy: refused: request body over ${maxRequestBytes} bytes (Content-Length ${declared}); not read`,
      );
    });

    it("a chunked body that grows over the cap", async () => {
      const chunk = Buffer.alloc(64 * 1024, "a");
      const answer = await raw(port, `PUT /${token}/v1/sms/providers/sms_1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n`, (write) => {
        for (let i = 0; i < 8; i++) write(Buffer.concat([Buffer.from(`${chunk.byteLength.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]));
      });
      expect(refusal(answer)).toBe(`413 respect proxy: refused: request body over ${maxRequestBytes} bytes; not read further`);
    });

    it("a request whose headers or body do not arrive within the run's request timeout", async () => {
      const started = performance.now();
      const [headers, body] = await Promise.all([
        raw(port, `GET /${token}/v1/widgets/wgt_1 HTTP/1.1\r\nHost: x\r\n`),
        raw(port, `PUT /${token}/v1/sms/providers/sms_1 HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"sort"`),
      ]);
      for (const answer of [headers, body]) expect(refusal(answer)).toBe(`408 respect proxy: refused: request not received within ${timeoutMs} ms (--request-timeout)`);
      expect(performance.now() - started).toBeGreaterThanOrEqual(timeoutMs - 50);
    });

    it("a CONNECT (a tunnel)", async () => {
      expect(refusal(await raw(port, `CONNECT ${other()} HTTP/1.1\r\nHost: ${other()}\r\n\r\n`))).toBe(
        "405 respect proxy: refused: CONNECT (a tunnel); only origin-form requests are forwarded",
      );
    });
  });
});
