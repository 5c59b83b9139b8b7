// `Prefer` on the mock: a switch is read only as a whole token, a value the document does not
// hold is a 400 naming the header and what is documented (never a silent 200), a documented
// problem names the request's own id, and a simulated 429's RateLimit agrees with it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { parsePrefer } from "../../mock/prefer-header.js";
import { appA } from "../support/demo.js";

describe("parsePrefer", () => {
  it.each([
    ["code=404", { status: 404 }],
    ['code="404"', { status: 404 }],
    ["return=minimal, code=500; example=InternalErrorProblem", { status: 500, example: "InternalErrorProblem" }],
    ["dynamic=true", { dynamic: true }],
    // A switch is a whole token: these are not code=404.
    ["xcode=404", {}],
    ["code=4040", { invalid: 'code="4040" is not an HTTP status' }],
    ["code=404x", { invalid: 'code="404x" is not an HTTP status' }],
    ["code=abc", { invalid: 'code="abc" is not an HTTP status' }],
    ["example=../../etc/passwd", { invalid: 'example="../../etc/passwd" is not an example name' }],
    ["dynamic=yes", { invalid: 'dynamic="yes" is not true or false' }],
    ["", {}],
  ])("%s", (header, expected) => {
    expect(parsePrefer(header)).toEqual(expected);
  });

  it("echoes at most 64 characters of a bad value", () => {
    expect(parsePrefer(`code=${"9".repeat(5000)}`).invalid!.length).toBeLessThan(100);
  });
});

describe("Prefer on the mock", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ rateLimit: { limit: 600, windowMs: 60_000 } });
  });
  afterAll(() => mock?.close());

  const get = (path: string, prefer: string) => fetch(`${mock.url}${path}`, { headers: { authorization: `Bearer ${appA.apiKey}`, prefer } });

  it.each(["code=abc", "example=../../etc/passwd", "code=4040", "code=418", "dynamic=maybe", "code=404, example=NoSuchExample"])(
    "Prefer: %s is a 400 naming Prefer and the documented statuses or examples",
    async (prefer) => {
      const response = await get("/webhooks/whk_3a7f1c9e5b2d", prefer);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { code: string; errors: { in: string; name: string; message: string }[] };
      expect(body.code).toBe("validation_failed");
      expect(body.errors).toEqual([{ in: "header", name: "Prefer", message: expect.stringMatching(/200, 400, 401, 404|ReadWebhookNotFoundProblem/) }]);
    },
  );

  it("a documented problem names the request's own id", async () => {
    const response = await get("/webhooks/whk_3a7f1c9e5b2d", "code=404");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ detail: "Webhook whk_3a7f1c9e5b2d was not found.", instance: "/v1/webhooks/whk_3a7f1c9e5b2d" });
    const conflict = await fetch(`${mock.url}/sms/providers/sms_9e4a1d7c3b2f`, {
      method: "PUT",
      headers: { authorization: `Bearer ${appA.apiKey}`, "content-type": "application/json", prefer: "code=409" },
      body: "{}",
    });
    expect(((await conflict.json()) as { detail: string }).detail).toMatch(/^SMS provider sms_9e4a1d7c3b2f is the default/);
  });

  it("a simulated 429 says no quota is left, reset when Retry-After says, even with the rate limit on", async () => {
    const response = await get("/webhooks", "code=429");
    expect(response.status).toBe(429);
    const retryAfter = response.headers.get("retry-after");
    expect(retryAfter).toMatch(/^\d+$/);
    expect(response.headers.get("ratelimit")).toBe(`"default";r=0;t=${retryAfter}`);
  });
});
