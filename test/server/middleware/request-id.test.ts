// X-Request-Id: a safe client id (1–128 of A-Z a-z 0-9 . _ : -) is echoed, anything else is
// replaced by a fresh UUID; every response carries it, errors and unknown routes included,
// and the request's log line carries the same id.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness.js";
import { appA } from "../../support/demo.js";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const bearer = { authorization: `Bearer ${appA.apiKey}` };

let server: Harness;
beforeAll(async () => {
  server = await startHarness({ rateLimit: false });
});
afterAll(() => server.close());

const widget = (headers: Record<string, string> = {}) => fetch(`${server.url}/widgets/wgt_5a3c8e1f7b92`, { headers: { ...bearer, ...headers } });

describe("X-Request-Id", () => {
  it.each(["abc-123", "trace.id:42_x", "a".repeat(128)])("echoes the safe id %s", async (id) => {
    const response = await widget({ "x-request-id": id });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe(id);
  });

  it.each([
    ["too long", "a".repeat(129)],
    ["a space", "two words"],
    ["a quote", 'x"y'],
    ["a log-forging brace", '{"level":60}'],
  ])("replaces an id with %s by a UUID", async (_label, id) => {
    const response = await widget({ "x-request-id": id });
    const echoed = response.headers.get("x-request-id");
    expect(echoed).toMatch(uuid);
    expect(echoed).not.toBe(id);
  });

  it("generates a different UUID per request when none is sent", async () => {
    const [a, b] = await Promise.all([widget(), widget()]);
    expect(a.headers.get("x-request-id")).toMatch(uuid);
    expect(b.headers.get("x-request-id")).toMatch(uuid);
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });

  it.each([
    ["401", `/widgets/wgt_5a3c8e1f7b92`, {}],
    ["400", `/webhooks?limit=1000`, bearer],
    ["404 under /v1", `/nowhere`, bearer],
    ["405", `/notifications`, bearer],
  ])("is set on a %s problem", async (_label, path, headers) => {
    const response = await fetch(`${server.url}${path}`, { headers: { ...headers, "x-request-id": "err-id-1" } });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.headers.get("x-request-id")).toBe("err-id-1");
  });

  it("is set outside /v1 too", async () => {
    const response = await fetch(server.url.replace(/\/v1$/, "/"), { headers: { "x-request-id": "root-1" } });
    expect(response.status).toBe(404);
    expect(response.headers.get("x-request-id")).toBe("root-1");
  });

  it("is the id of the request's log line", async () => {
    await widget({ "x-request-id": "log-line-7" });
    const line = server.logs.find((entry) => (entry.req as { id?: string } | undefined)?.id === "log-line-7");
    expect(line).toMatchObject({ msg: "request completed", res: { statusCode: 200 } });
  });
});
