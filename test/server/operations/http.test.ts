// The rules end to end: the generated client against a real server on a free port, with
// response validation on, so what the handlers answer is checked against the document too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiClient } from "@authsvc/app-api-contract";
import { startServer, type RunningServer } from "../../support/server.js";
import type { SmsProvider } from "../../../server/domain/index.js";
import { createStore } from "../../../server/store/memory.js";
import { demo, fixedNow, seedWithProviders } from "./harness.js";

let server: RunningServer;
let a: ReturnType<typeof client>;
let b: ReturnType<typeof client>;
const client = (app: typeof demo.a | typeof demo.b) => createApiClient({ baseUrl: server.url, apiKey: app.apiKey, apiSecret: app.apiSecret });

beforeAll(async () => {
  server = await startServer({ clock: () => fixedNow, rateLimit: false });
  a = client(demo.a);
  b = client(demo.b);
});
afterAll(() => server.close());

describe("through HTTP", () => {
  it("answers another application's widget, user, webhook and history with 404 not_found", async () => {
    const calls = [
      b.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } }),
      b.GET("/users/{id}/activity", { params: { path: { id: "usr_7d2e9a4c1b6f" } } }),
      b.GET("/webhooks/{id}", { params: { path: { id: "whk_3a7f1c9e5b2d" } } }),
      b.GET("/webhooks/{id}/history", { params: { path: { id: "whk_3a7f1c9e5b2d" } } }),
      a.PUT("/sms/providers/{id}", { params: { path: { id: "sms_5b1e8d3f9a2c" } }, body: {} }),
      a.GET("/widgets/{id}", { params: { path: { id: "wgt_2f6b9d3a8e1c" } } }),
    ];
    for (const { response, error } of await Promise.all(calls)) {
      expect(response.status).toBe(404);
      expect(error).toMatchObject({ code: "not_found", status: 404 });
    }
  });

  it("answers a known id of the caller's own application with its record", async () => {
    const { data } = await b.GET("/widgets/{id}", { params: { path: { id: "wgt_2f6b9d3a8e1c" } } });
    expect(data?.result.application_id).toBe(demo.b.applicationId);
  });

  it("refuses start_date after end_date with 400 naming both", async () => {
    const { response, error } = await a.GET("/reports/encryption", { params: { query: { start_date: 1772460000, end_date: 1772000000 } } });
    expect(response.status).toBe(400);
    expect(error?.errors?.map((e) => e.name)).toEqual(["start_date", "end_date"]);
  });

  it("filters reports by IPv6 in any spelling", async () => {
    const { data } = await a.GET("/reports/encryption", { params: { query: { ip: "2001:0DB8:0000::0042" } } });
    expect(data?.result.map((r) => r.id)).toEqual(["rep_2e7c1a9f5b3d"]);
  });

  it("answers 409 conflict to un-defaulting the default provider", async () => {
    const { response, error } = await a.PUT("/sms/providers/{id}", { params: { path: { id: "sms_2c7e9b4f1a6d" } }, body: { is_default: false } });
    expect(response.status).toBe(409);
    expect(error?.code).toBe("conflict");
  });

  const base = { title: "T", content: "C", broadcast: true };
  const items = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `Choice ${i + 1}` }));
  // Every rule of createNotification (docs/decisions.md, Notification targeting) that the document states, sent through the real server, each
  // answered with an errors[] entry pointing at every offending value (a missing list or a
  // list not allowed with the rest of the body is pointed at by its own name).
  it.each([
    // Targets.
    ["no target", { type: "SIMPLE", title: "T", content: "C" }, ["/receivers", "/groups"]],
    ["broadcast with receivers", { ...base, type: "SIMPLE", receivers: ["usr_7d2e9a4c1b6f"] }, ["/receivers"]],
    ["broadcast with groups", { ...base, type: "SIMPLE", groups: [7] }, ["/groups"]],
    // radio: 2-10 items, required for RADIO and allowed only with it.
    ["radio on SIMPLE", { ...base, type: "SIMPLE", radio: items(2) }, ["/radio"]],
    ["radio on CHECKBOX", { ...base, type: "CHECKBOX", checkbox: items(2), radio: items(2) }, ["/radio"]],
    ["RADIO without radio", { ...base, type: "RADIO" }, ["/radio"]],
    ["RADIO with 1 radio item", { ...base, type: "RADIO", radio: items(1) }, ["/radio"]],
    ["RADIO with 11 radio items", { ...base, type: "RADIO", radio: items(11) }, ["/radio"]],
    // checkbox: likewise with CHECKBOX.
    ["checkbox on SIMPLE", { ...base, type: "SIMPLE", checkbox: items(2) }, ["/checkbox"]],
    ["checkbox on RADIO", { ...base, type: "RADIO", radio: items(2), checkbox: items(2) }, ["/checkbox"]],
    ["CHECKBOX without checkbox", { ...base, type: "CHECKBOX" }, ["/checkbox"]],
    ["CHECKBOX with 1 checkbox item", { ...base, type: "CHECKBOX", checkbox: items(1) }, ["/checkbox"]],
    ["CHECKBOX with 11 checkbox items", { ...base, type: "CHECKBOX", checkbox: items(11) }, ["/checkbox"]],
    // close_text / submit_text only with SURVEY.
    ["close_text on SIMPLE", { ...base, type: "SIMPLE", close_text: "Close" }, ["/close_text"]],
    ["submit_text on RADIO", { ...base, type: "RADIO", radio: items(2), submit_text: "Send" }, ["/submit_text"]],
    ["close_text on CHECKBOX", { ...base, type: "CHECKBOX", checkbox: items(2), close_text: "Close" }, ["/close_text"]],
    // Lengths.
    ["a title over 50 characters", { ...base, type: "SIMPLE", title: "x".repeat(51) }, ["/title"]],
    ["content over 250 characters", { ...base, type: "SIMPLE", content: "x".repeat(251) }, ["/content"]],
    ["close_text over 15 characters", { ...base, type: "SURVEY", close_text: "x".repeat(16) }, ["/close_text"]],
    ["submit_text over 15 characters", { ...base, type: "SURVEY", submit_text: "x".repeat(16) }, ["/submit_text"]],
  ])("the document refuses a notification with %s (400)", async (_name, body, pointers) => {
    const { response, error } = await a.POST("/notifications", { body: body as never });
    expect(response.status).toBe(400);
    expect(error?.code).toBe("validation_failed");
    for (const pointer of pointers) expect(error?.errors).toContainEqual(expect.objectContaining({ in: "body", pointer }));
  });

  it.each([
    ["SIMPLE", { ...base, type: "SIMPLE" }],
    ["SURVEY with close and submit texts", { ...base, type: "SURVEY", close_text: "x".repeat(15), submit_text: "Send answer" }],
    ["RADIO with 2 items", { ...base, type: "RADIO", radio: items(2) }],
    ["RADIO with 10 items", { ...base, type: "RADIO", radio: items(10) }],
    ["CHECKBOX", { ...base, type: "CHECKBOX", checkbox: [{ text: "a", selected: true }, { text: "b" }] }],
    ["a title of 50 and content of 250 characters", { ...base, type: "SIMPLE", title: "x".repeat(50), content: "x".repeat(250) }],
  ])("accepts a valid %s notification (200, PENDING)", async (_name, body) => {
    const { response, data } = await a.POST("/notifications", { body: body as never });
    expect(response.status).toBe(200);
    expect(data?.result).toMatchObject({ type: body.type, status: "PENDING", title: body.title, content: body.content });
  });

  it("refuses a receiver who never logged in, naming it", async () => {
    const { response, error } = await a.POST("/notifications", {
      body: { type: "SIMPLE", title: "T", content: "C", receivers: ["usr_7d2e9a4c1b6f", "lena.fischer@globex.example"] },
    });
    expect(response.status).toBe(400);
    expect(error?.errors).toEqual([expect.objectContaining({ in: "body", pointer: "/receivers/1" })]);
  });

  it("schedules a notification and answers it PENDING", async () => {
    const { data } = await a.POST("/notifications", { body: { type: "SIMPLE", title: "T", content: "C", groups: [7], send_at: "now" } });
    expect(data?.result).toMatchObject({ status: "PENDING", send_at: fixedNow.toISOString(), receivers: [] });
  });

  it("answers no submitted e-mail secret, in success or in error", async () => {
    const secrets = { accessKeyId: "AKIAPROBE0SECRET0KEY", secretAccessKey: "probe/secret+access=key", api_key: "SG.probe-secret-api-key" };
    const responses = await Promise.all([
      b.POST("/custom/emails", { body: { type: "SENDGRID", email_from: "m@globex.example", email_admin: "a@globex.example", auth: { api_key: secrets.api_key } } }),
      b.POST("/custom/emails", {
        body: {
          type: "SES",
          email_from: "m@globex.example",
          email_admin: "a@globex.example",
          auth: { region: "eu-west-1", accessKeyId: secrets.accessKeyId, secretAccessKey: secrets.secretAccessKey },
        },
      }),
      // Wrong shapes: the validator's error must not echo the values either.
      b.POST("/custom/emails", { body: { type: "SES", email_from: "m@globex.example", email_admin: "a@globex.example", auth: { api_key: secrets.api_key } } as never }),
      b.POST("/custom/emails", {
        body: {
          type: "SENDGRID",
          email_from: "m@globex.example",
          email_admin: "a@globex.example",
          auth: { api_key: secrets.api_key, secretAccessKey: secrets.secretAccessKey },
        } as never,
      }),
    ]);
    expect(responses.map((r) => r.response.status)).toEqual([200, 200, 400, 400]);
    for (const { data, error } of responses) {
      const text = JSON.stringify(data ?? error);
      for (const secret of Object.values(secrets)) expect(text).not.toContain(secret);
    }
  });

  it("keeps providers at positions 1..n with one default under 200 concurrent updates", async () => {
    const ids = ["sms_p1", "sms_p2", "sms_p3", "sms_p4", "sms_p5"];
    const five = await startServer({ store: createStore(seedWithProviders(5)), rateLimit: false });
    const api = createApiClient({ baseUrl: five.url, apiKey: demo.a.apiKey });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        api.PUT("/sms/providers/{id}", {
          params: { path: { id: ids[(i * 7) % 5]! } },
          body: i % 25 === 0 ? { is_default: true } : { sort: i % 3 === 0 ? "DOWN" : "UP" },
        }),
      ),
    ).finally(() => five.close());
    expect(results.map((r) => r.response.status).every((status) => status === 200)).toBe(true);
    const providers: SmsProvider[] = await five.store.smsProviders(demo.a.applicationId);
    expect(providers.map((p) => p.sort)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(providers.map((p) => p.id))).toEqual(new Set(ids));
    expect(providers.filter((p) => p.is_default)).toHaveLength(1);
    // Every answer was itself consistent: a position within 1..n.
    for (const { data } of results) expect([1, 2, 3, 4, 5]).toContain(data?.result.sort);
  });
});
