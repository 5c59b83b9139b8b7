// No submitted secret reaches a log line: requests carrying API keys, API secrets and e-mail
// transport credentials (accepted, refused, malformed, failing) are sent, and every captured
// pino line, and every response body, is searched for each secret.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startHarness, type Harness } from "./harness.js";
import { appA, appB } from "../../support/demo.js";

const sendgridKey = "SG.redaction-test-7f3a9c2e.never-log-me";
const sesSecret = "wJalrXUtnFEMI/K7MDENG/redaction-test-secret";
const unknownKey = "ak_live_unknown_5e1c9a7d3b2f4e6a";
const secrets = [appA.apiKey, appA.apiSecret, appB.apiKey, appB.apiSecret, sendgridKey, sesSecret, unknownKey];

let server: Harness;
const bodies: string[] = [];
beforeAll(async () => {
  server = await startHarness({
    rateLimit: false,
    handlers: {
      findWebhooks: () => {
        throw new Error("boom");
      },
    },
  });
  const bearer = { authorization: `Bearer ${appA.apiKey}` };
  const pair = { "x-api-key": appA.apiKey, "x-api-secret": appA.apiSecret };
  const requests: [Parameters<typeof send>[1], Record<string, string>][] = [
    [{ method: "GET", path: "/widgets/wgt_5a3c8e1f7b92" }, bearer],
    [{ method: "GET", path: "/webhooks" }, bearer], // 500
    [{ method: "GET", path: "/widgets/wgt_5a3c8e1f7b92" }, { authorization: `Bearer ${unknownKey}` }],
    [
      { method: "GET", path: "/widgets/wgt_5a3c8e1f7b92" },
      { "x-api-key": appB.apiKey, "x-api-secret": appB.apiSecret },
    ],
    [{ method: "POST", path: "/notifications", body: JSON.stringify({ type: "SIMPLE", title: "t", content: "c", broadcast: true }) }, pair],
    [
      { method: "POST", path: "/notifications", body: "{}" },
      { "x-api-key": appA.apiKey, "x-api-secret": appB.apiSecret },
    ],
    [
      {
        method: "POST",
        path: "/custom/emails",
        body: JSON.stringify({
          type: "SENDGRID",
          email_from: "no-reply@acme-shop.example",
          email_admin: "admin@acme-shop.example",
          from_name: "Acme",
          auth: { api_key: sendgridKey },
        }),
      },
      bearer,
    ],
    [
      {
        method: "POST",
        path: "/custom/emails",
        body: JSON.stringify({
          type: "SES",
          email_from: "no-reply@acme-shop.example",
          email_admin: "admin@acme-shop.example",
          from_name: "Acme",
          auth: { region: "eu-west-1", accessKeyId: "AKIAREDACTIONTEST", secretAccessKey: sesSecret },
        }),
      },
      bearer,
    ],
    // Wrong auth shape (400) and a truncated body (malformed JSON) that holds the secret.
    [{ method: "POST", path: "/custom/emails", body: JSON.stringify({ type: "SES", auth: { api_key: sendgridKey } }) }, bearer],
    [{ method: "POST", path: "/custom/emails", body: `{"type":"SENDGRID","auth":{"api_key":"${sendgridKey}"` }, bearer],
  ];
  for (const [request, headers] of requests) {
    const response = await send(server, request, { ...headers, "x-request-id": "redaction" });
    bodies.push(await response.text());
  }
});
afterAll(() => server.close());

describe("log redaction", () => {
  it("logged every request", () => {
    const completed = server.logs.filter((line) => (line.req as { id?: string } | undefined)?.id === "redaction" && line.res);
    expect(completed.length).toBe(10);
  });

  it("shows that credential headers were sent, as [Redacted]", () => {
    const headers = server.logs.map((line) => (line.req as { headers?: Record<string, string> } | undefined)?.headers).filter(Boolean);
    expect(headers.some((h) => h!.authorization === "[Redacted]")).toBe(true);
    expect(headers.some((h) => h!["x-api-key"] === "[Redacted]" && h!["x-api-secret"] === "[Redacted]")).toBe(true);
  });

  it.each(secrets)("no log line contains %s", (secret) => {
    expect(server.rawLogs.length).toBeGreaterThan(0);
    for (const line of server.rawLogs) expect(line).not.toContain(secret);
  });

  it.each(secrets)("no response body contains %s", (secret) => {
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) expect(body).not.toContain(secret);
  });
});
