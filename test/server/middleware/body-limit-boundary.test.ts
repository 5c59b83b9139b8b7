// The body limit is inclusive: a body of exactly 100 kB (declared and sent) is read, one
// byte more is a 413. A mutant that refused a declared length equal to the limit survived
// the tests of 10 MB and of one byte over.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyLimitKb } from "../../../server/problems.js";
import { appA } from "../../support/demo.js";
import { startServer, type RunningServer } from "../../support/server.js";

let server: RunningServer;
beforeAll(async () => void (server = await startServer({ rateLimit: false })));
afterAll(() => server.close());

/** A PUT whose JSON body is padded with spaces to exactly `bytes` bytes (spaces are valid JSON). */
function putOf(bytes: number): Promise<Response> {
  const json = JSON.stringify({ name: "Twilio" });
  const body = json + " ".repeat(bytes - Buffer.byteLength(json));
  expect(Buffer.byteLength(body)).toBe(bytes);
  return fetch(`${server.url}/sms/providers/sms_2c7e9b4f1a6d`, {
    method: "PUT",
    headers: { authorization: `Bearer ${appA.apiKey}`, "content-type": "application/json" },
    body,
  });
}

describe(`a body at the ${bodyLimitKb} kB limit`, () => {
  it(`exactly ${bodyLimitKb * 1024} bytes: read and answered, not 413`, async () => {
    const response = await putOf(bodyLimitKb * 1024);
    const answer = (await response.json()) as { code?: string };
    expect(response.status, JSON.stringify(answer)).not.toBe(413);
    expect(answer.code).not.toBe("payload_too_large");
  });

  it("one byte more: 413 payload_too_large", async () => {
    const response = await putOf(bodyLimitKb * 1024 + 1);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "payload_too_large" });
  });
});
