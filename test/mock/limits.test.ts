// The mock survives any request and refuses it as the server does (it runs the server's own
// layer): bad percent-encoding in the path is a 400 problem, bodies over the server's limit
// a 413, and CORS answers a browser without credentials.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { bodyLimitKb } from "../../server/problems.js";
import { componentValidator } from "../support/document.js";
import { appA } from "../support/demo.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.close());

const origin = () => mock.url.replace(/\/v1$/, "");
const problemSchema = componentValidator("#/components/schemas/Problem");

async function stillServes(): Promise<void> {
  const response = await fetch(`${mock.url}/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization: `Bearer ${appA.apiKey}` } });
  expect(response.status).toBe(200);
}

async function problem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body = (await response.json()) as { code: string };
  expect(problemSchema(body), JSON.stringify(problemSchema.errors)).toBe(true);
  expect(body.code).toBe(code);
}

describe("mock limits", () => {
  it.each([
    ["/v1/webhooks/%C0%AE/history", 400, "validation_failed"],
    ["/v1/widgets/%E0%A4%A", 400, "validation_failed"],
    ["/v1/widgets/%", 400, "validation_failed"],
    ["/v1/webhooks/%ZZ", 400, "validation_failed"],
    ["/v1/%FF/%FE", 404, "not_found"],
  ] as const)("%s: the server's problem (%i %s), and the mock still serves", async (path, status, code) => {
    await problem(await fetch(`${origin()}${path}`, { headers: { authorization: `Bearer ${appA.apiKey}` } }), status, code);
    await stillServes();
  });

  it(`a body over ${bodyLimitKb} kB with its length declared: 413 before the body is sent`, async () => {
    // Only the headers and the body's first bytes go out: the mock must answer from the
    // declared length alone, so there is always an answer to read (a client sending the
    // whole body could see the connection closed under it instead).
    const answer = await new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
      const req = request(`${mock.url}/sms/providers/sms_2c7e9b4f1a6d`, {
        method: "PUT",
        headers: { authorization: `Bearer ${appA.apiKey}`, "content-type": "application/json", "content-length": String(10_000_000) },
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

  it("a body under the limit is validated, its errors bounded as on the server", async () => {
    const response = await fetch(`${mock.url}/sms/providers/sms_2c7e9b4f1a6d`, {
      method: "PUT",
      headers: { authorization: `Bearer ${appA.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Primary gateway", patterns: Array<string>(30_000).fill("") }),
    });
    await problem(response, 400, "validation_failed");
  });
});

it("a chunked body under the limit is read whole", async () => {
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${mock.url}/sms/providers/sms_2c7e9b4f1a6d`, {
      method: "PUT",
      headers: { authorization: `Bearer ${appA.apiKey}`, "content-type": "application/json", "transfer-encoding": "chunked" },
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

it("answers any browser origin as the server with CORS_ORIGINS=* does: `*`, never with credentials", async () => {
  const withOrigin: Record<string, string>[] = [{ authorization: `Bearer ${appA.apiKey}`, origin: "http://localhost:5173" }, { origin: "https://evil.example" }];
  for (const headers of withOrigin) {
    const response = await fetch(`${mock.url}/widgets/wgt_5a3c8e1f7b92`, { headers });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
  }
  const preflight = await fetch(`${mock.url}/widgets/wgt_5a3c8e1f7b92`, {
    method: "OPTIONS",
    headers: { origin: "http://localhost:5173", "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
});
