// The mock's writes answer what was asked, as the server answers it on its seeded demo data
// (mock/writes.ts): the body's values, the path's id, the server's rules (sort moves, the
// default's 409, sealed auth kept, receivers checked). The document's write examples are the
// server's answers to its documented requests, so the mock answers a documented request with
// the documented example: one fact, the seed, behind both. Parity with the server on other
// writes is test/mock/parity.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { appA } from "../support/demo.js";
import { exampleBody, successExample } from "../support/document.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.close());

const bearer = { authorization: `Bearer ${appA.apiKey}`, "content-type": "application/json" };
const keyPair = { "x-api-key": appA.apiKey, "x-api-secret": appA.apiSecret, "content-type": "application/json" };

async function write(method: "PUT" | "POST", path: string, body: unknown, headers: Record<string, string> = bearer) {
  const response = await fetch(`${mock.url}${path}`, { method, headers, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { result: Record<string, unknown>; code?: string; detail?: string } };
}

describe("mock writes", () => {
  it.each([
    ["updateSmsProvider", "PUT", "/sms/providers/sms_9e4a1d7c3b2f", bearer],
    ["saveEmailTransport", "POST", "/custom/emails", bearer],
    ["createNotification", "POST", "/notifications", keyPair],
  ] as const)("%s: the documented request answers the documented example", async (operationId, method, path, headers) => {
    const answer = await write(method, path, exampleBody(operationId), headers);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(successExample(operationId));
  });

  it("PUT answers the body's values on the seed's record, and {} the record as seeded (the server's demo data)", async () => {
    const paused = await write("PUT", "/sms/providers/sms_9e4a1d7c3b2f", { is_active: false, name: "Paused", phone_types: ["LANDLINE"] });
    expect(paused.body.result).toMatchObject({ id: "sms_9e4a1d7c3b2f", is_active: false, name: "Paused", phone_types: ["LANDLINE"], log_messages: "HASH", sort: 2 });
    const unchanged = await write("PUT", "/sms/providers/sms_9e4a1d7c3b2f", {});
    // Stateless: the previous PUT changed nothing.
    expect(unchanged.body.result).toMatchObject({ is_active: true, name: "Backup gateway", log_messages: "HASH", countries: ["ES", "PT"], sort: 2 });
  });

  it("PUT on an id the seed does not have: the documented example under that id, with the body applied", async () => {
    const answer = await write("PUT", "/sms/providers/sms_aaaaaaaaaaaa", { is_active: false, countries: ["DE"] });
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({ id: "sms_aaaaaaaaaaaa", type: "VONAGE", is_active: false, countries: ["DE"] });
  });

  it("PUT is_default=false on the seed's default provider is the server's 409", async () => {
    const answer = await write("PUT", "/sms/providers/sms_2c7e9b4f1a6d", { is_default: false });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: "conflict", detail: expect.stringContaining("sms_2c7e9b4f1a6d") });
  });

  it("POST /custom/emails answers the sender asked for, its domain derived, the stored auth kept", async () => {
    const answer = await write("POST", "/custom/emails", { type: "SENDGRID", email_from: "other@news.example", email_admin: "ops@news.example" });
    expect(answer.body.result).toMatchObject({
      id: "eml_8f3b1e6c2a9d",
      type: "SENDGRID",
      email_from: "other@news.example",
      email_admin: "ops@news.example",
      domain: "news.example",
      is_verified: true,
      send_count: 1280,
    });
  });

  it("POST /notifications answers the notification asked for; receivers are checked against the seed's users", async () => {
    const answer = await write("POST", "/notifications", { type: "SIMPLE", title: "Hello", content: "Hi there", level: 2, broadcast: true }, keyPair);
    expect(answer.body.result).toMatchObject({ type: "SIMPLE", title: "Hello", content: "Hi there", level: 2, status: "PENDING", receivers: [] });
    const stranger = await write("POST", "/notifications", { type: "SIMPLE", title: "Hello", content: "Hi", receivers: ["nobody@acme-shop.example"] }, keyPair);
    expect(stranger.status).toBe(400);
  });
});
