// What a client can hold open or send before the app sees a request: credentials are checked
// before the body is read (no `100 Continue` without them), a body trickled in slowly ends
// in a 408 problem, and Node's own 400 and 431 answers carry problem bodies.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appA } from "../../support/demo.js";
import { exchange as rawExchange, type ExchangeOptions } from "../../support/raw-exchange.js";
import { startHarness, type Harness } from "./harness.js";

let server: Harness;
beforeAll(async () => {
  server = await startHarness({ rateLimit: false, requestTimeoutMs: 2_000 });
});
afterAll(() => server.close());

const exchange = (head: string, options?: ExchangeOptions) => rawExchange(server.url, head, options);

const put = (headers: string, length: number) =>
  `PUT /v1/sms/providers/sms_2c7e9b4f1a6d HTTP/1.1\nHost: localhost\nContent-Type: application/json\nContent-Length: ${length}\nConnection: close\n${headers}`;

describe("credentials before the body", () => {
  it("Expect: 100-continue without credentials: 401 at once, never 100 Continue", async () => {
    const { text } = await exchange(put("Expect: 100-continue\n", 90_000));
    expect(text).not.toContain("100 Continue");
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
    expect(text).toContain('"code":"unauthorized"');
  });

  it("Expect: 100-continue with credentials: 100 Continue, then the answer to the body", async () => {
    const body = JSON.stringify({ name: "Primary gateway" });
    const { text } = await exchange(put(`Expect: 100-continue\nAuthorization: Bearer ${appA.apiKey}\n`, body.length), { body });
    expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
  });

  it("a body trickled in slower than the request timeout: 408 problem, connection closed", async () => {
    const { text, ms } = await exchange(put(`Authorization: Bearer ${appA.apiKey}\n`, 1_000), { start: "{", drip: true });
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toContain('"code":"request_timeout"');
    expect(ms).toBeLessThan(5_000);
  });
});

describe("Node's own client errors", () => {
  it("headers over the limit: 431 with a problem body", async () => {
    const { text } = await exchange(`GET /v1/widgets/wgt_5a3c8e1f7b92 HTTP/1.1\nHost: localhost\nX-Big: ${"b".repeat(20_000)}\n`);
    expect(text).toMatch(/^HTTP\/1\.1 431 /);
    expect(text).toContain("Content-Type: application/problem+json");
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toMatchObject({ status: 431, code: "headers_too_large" });
  });

  it("a malformed header line: 400 with a problem body", async () => {
    const { text } = await exchange("GET /v1/widgets/x HTTP/1.1\nHost: localhost\nBad Header\n");
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toMatchObject({ status: 400, code: "validation_failed" });
  });
});
