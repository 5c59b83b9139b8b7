// A body declared larger than the limit is refused from its Content-Length alone: the reader
// used to drain the whole upload before its 413, so a client declaring 10 MB and sending a
// few bytes held the request (and a connection) open for as long as it liked.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyLimitKb } from "../../../server/problems.js";
import { appA } from "../../support/demo.js";
import { startServer, type RunningServer } from "../../support/server.js";

let server: RunningServer;
beforeAll(async () => void (server = await startServer({ rateLimit: false })));
afterAll(() => server.close());

/** Sends the headers and the body's first bytes only, and reads whatever answer comes. */
function partialPut(declaredBytes: number): Promise<{ status: number; connection: string | undefined; body: { code?: string } }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/sms/providers/sms_2c7e9b4f1a6d`, {
      method: "PUT",
      headers: { authorization: `Bearer ${appA.apiKey}`, "content-type": "application/json", "content-length": String(declaredBytes) },
    });
    req.on("response", (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => {
        resolve({ status: res.statusCode!, connection: res.headers.connection, body: JSON.parse(text) as { code?: string } });
        req.destroy();
      });
    });
    req.on("error", reject);
    req.write('{"name":"');
  });
}

describe("a body declared over the limit", () => {
  it(`10 MB declared, a few bytes sent: 413 payload_too_large at once, connection closed`, async () => {
    const answer = await partialPut(10_000_000);
    expect(answer).toEqual({ status: 413, connection: "close", body: expect.objectContaining({ code: "payload_too_large" }) });
  });

  it(`one byte over ${bodyLimitKb} kB declared: the same 413`, async () => {
    expect((await partialPut(bodyLimitKb * 1024 + 1)).status).toBe(413);
  });
});
