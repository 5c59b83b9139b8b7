// The mock survives any request: bad percent-encoding in the path is a 400 problem (Prism's
// own decoding would end the process), and bodies over the server's limit are a 413, as the
// server answers them.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { bodyLimitKb } from "../../server/problems.js";
import { componentValidator } from "../support/document.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.close());

const origin = () => mock.url.replace(/\/v1$/, "");
const problemSchema = componentValidator("#/components/schemas/Problem");

async function stillServes(): Promise<void> {
  const response = await fetch(`${mock.url}/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization: "Bearer any" } });
  expect(response.status).toBe(200);
}

async function problem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body = (await response.json()) as { code: string };
  expect(problemSchema(body), JSON.stringify(problemSchema.errors)).toBe(true);
  expect(body.code).toBe(code);
}

describe("mock guard", () => {
  it.each(["/v1/webhooks/%C0%AE/history", "/v1/widgets/%E0%A4%A", "/v1/widgets/%", "/v1/webhooks/%ZZ", "/v1/%FF/%FE"])(
    "%s, without credentials: a 400 problem, and the mock still serves",
    async (path) => {
      await problem(await fetch(`${origin()}${path}`), 400, "validation_failed");
      await stillServes();
    },
  );

  it(`a body over ${bodyLimitKb} kB with its length declared: 413 before the body is sent`, async () => {
    // Only the headers and the body's first bytes go out: the mock must answer from the
    // declared length alone, so there is always an answer to read (a client sending the
    // whole body could see the connection closed under it instead).
    const answer = await new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
      const req = request(`${mock.url}/sms/providers/sms_2c7e9b4f1a6d`, {
        method: "PUT",
        headers: { authorization: "Bearer any", "content-type": "application/json", "content-length": String(10_000_000) },
      });
      req.on("response", (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => {
          resolve({ status: res.statusCode!, type: res.headers["content-type"], body });
          req.destroy();
        });
      });
      req.on("error", reject);
      req.write('{"name":"');
    });
    await problem(new Response(answer.body, { status: answer.status, headers: { "content-type": answer.type ?? "" } }), 413, "payload_too_large");
    await stillServes();
  });

  it(`a chunked body over ${bodyLimitKb} kB: 413 once the limit is passed`, async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${mock.url}/sms/providers/sms_2c7e9b4f1a6d`, {
        method: "PUT",
        headers: { authorization: "Bearer any", "content-type": "application/json", "transfer-encoding": "chunked" },
      });
      req.on("response", (res) => (res.resume(), resolve(res.statusCode!)));
      req.on("error", reject);
      req.write('{"name":"');
      const chunk = "x".repeat(16_384);
      let sent = 0;
      const pump = () => {
        while (sent < 200_000 && req.write(chunk)) sent += chunk.length;
        if (sent < 200_000) req.once("drain", pump);
      };
      pump();
    });
    expect(status).toBe(413);
    await stillServes();
  });

  it("a body under the limit still reaches Prism", async () => {
    const response = await fetch(`${mock.url}/sms/providers/sms_2c7e9b4f1a6d`, {
      method: "PUT",
      headers: { authorization: "Bearer any", "content-type": "application/json" },
      body: JSON.stringify({ name: "Primary gateway", patterns: Array<string>(30_000).fill("") }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("sl-violations")).toContain("patterns");
  });
});

it("a chunked body under the limit reaches Prism whole", async () => {
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${mock.url}/sms/providers/sms_2c7e9b4f1a6d`, {
      method: "PUT",
      headers: { authorization: "Bearer any", "content-type": "application/json", "transfer-encoding": "chunked" },
    });
    req.on("response", (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.write('{"name":');
    req.end('"Primary gateway"}');
  });
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body)).toMatchObject({ result: { id: expect.any(String) } });
});

it("answers a browser's Origin in Access-Control-Allow-Origin, not the document's example value", async () => {
  const withOrigin: Record<string, string>[] = [{ authorization: "Bearer any", origin: "http://localhost:5173" }, { origin: "http://localhost:5173" }];
  for (const headers of withOrigin) {
    const response = await fetch(`${mock.url}/widgets/wgt_5a3c8e1f7b92`, { headers });
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
  }
});
