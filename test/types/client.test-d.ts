// What the typed client lets a caller write, checked by the compiler: every operation's
// path, parameters and body are typed from the document, every response's `data` and
// `error` too. Each `@ts-expect-error` must be caused by the mistake named beside it (an
// unused one fails the run), so each mistaken call carries only that one mistake.
import { describe, expectTypeOf, test } from "vitest";
import { createApiClient, type Problem } from "../../client/index.js";
import type { components } from "../../generated/schema.js";

type S = components["schemas"];

const client = createApiClient({ baseUrl: "http://127.0.0.1:4010/v1", apiKey: "k", apiSecret: "s" });

describe("paths and parameters", () => {
  test("path parameters: right name and type compile; a wrong name, a wrong type or a missing one does not", () => {
    client.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } });
    // @ts-expect-error `widgetId` is not a path parameter of GET /widgets/{id}
    client.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92", widgetId: "x" } } });
    // @ts-expect-error `id` is a string
    client.GET("/widgets/{id}", { params: { path: { id: 42 } } });
    // @ts-expect-error `id` is required
    client.GET("/widgets/{id}", { params: { path: {} } });
    // @ts-expect-error `params` with the path is required
    client.GET("/webhooks/{id}");
  });

  test("query parameters: typed names, types and enums", () => {
    client.GET("/users/{id}/activity", { params: { path: { id: "usr_7d2e9a4c1b6f" }, query: { limit: 20, page: 2 } } });
    client.GET("/reports/encryption", { params: { query: { device_type: "IOS", start_date: 1767225600 } } });
    client.GET("/reports/encryption");
    // @ts-expect-error `limit` is a number
    client.GET("/webhooks", { params: { query: { limit: "10" } } });
    // @ts-expect-error `size` is not a query parameter of GET /webhooks
    client.GET("/webhooks", { params: { query: { limit: 10, size: 10 } } });
    // @ts-expect-error `device_type` is ANDROID or IOS
    client.GET("/reports/encryption", { params: { query: { device_type: "WINDOWS" } } });
    // @ts-expect-error `start_date` is Unix seconds, a number
    client.GET("/reports/encryption", { params: { query: { start_date: "2026-01-01" } } });
  });

  test("unknown paths and methods the document does not serve do not compile", () => {
    // @ts-expect-error no such path
    client.GET("/widgets", {});
    // @ts-expect-error the base path `/v1` belongs in baseUrl, not in the path
    client.GET("/v1/webhooks", {});
    // @ts-expect-error GET /notifications is not an operation
    client.GET("/notifications", {});
    // @ts-expect-error DELETE /gadgets/{id} is an operation of the test document (test/express-entry/gadgets/), not of this API
    client.DELETE("/gadgets/{id}", { params: { path: { id: "g1" } } });
  });
});

describe("request bodies", () => {
  test("PUT /sms/providers/{id}: every field optional, enums closed, unknown fields refused", () => {
    client.PUT("/sms/providers/{id}", { params: { path: { id: "sms_2c7e9b4f1a6d" } }, body: {} });
    client.PUT("/sms/providers/{id}", {
      params: { path: { id: "sms_2c7e9b4f1a6d" } },
      body: { sort: "UP", log_messages: "HASH", countries: ["US"], is_default: true },
    });
    // @ts-expect-error `sort` is UP or DOWN
    client.PUT("/sms/providers/{id}", { params: { path: { id: "sms_2c7e9b4f1a6d" } }, body: { sort: "TOP" } });
    // @ts-expect-error `log_messages` is FULL, HASH or DISABLED
    client.PUT("/sms/providers/{id}", { params: { path: { id: "sms_2c7e9b4f1a6d" } }, body: { log_messages: "NONE" } });
    // @ts-expect-error `priority` is not a field of the update
    client.PUT("/sms/providers/{id}", { params: { path: { id: "sms_2c7e9b4f1a6d" } }, body: { priority: 1 } });
    // @ts-expect-error the body is required
    client.PUT("/sms/providers/{id}", { params: { path: { id: "sms_2c7e9b4f1a6d" } } });
  });

  test("POST /custom/emails: the union discriminated by `type` fixes the auth shape", () => {
    const sender = { email_from: "no-reply@acme-shop.example", email_admin: "admin@acme-shop.example" };
    client.POST("/custom/emails", { body: { type: "SENDGRID", ...sender, auth: { api_key: "SG.x" } } });
    client.POST("/custom/emails", {
      body: { type: "SES", ...sender, auth: { region: "eu-west-1", accessKeyId: "AKIA", secretAccessKey: "x" } },
    });
    // @ts-expect-error `email_admin` is required
    client.POST("/custom/emails", { body: { type: "SENDGRID", email_from: "no-reply@acme-shop.example" } });
    // @ts-expect-error `type` is SENDGRID or SES
    client.POST("/custom/emails", { body: { type: "MAILGUN", ...sender } });
    // @ts-expect-error SES auth has no `api_key`
    client.POST("/custom/emails", { body: { type: "SES", ...sender, auth: { api_key: "SG.x" } } });
  });

  test("POST /notifications: required fields and the per-type fields", () => {
    client.POST("/notifications", { body: { type: "SIMPLE", title: "Hi", content: "Hello", broadcast: true, send_at: "now" } });
    client.POST("/notifications", {
      body: { type: "RADIO", title: "Pick", content: "One", receivers: ["usr_7d2e9a4c1b6f"], radio: [{ text: "a" }, { text: "b" }] },
    });
    // @ts-expect-error `title` is required
    client.POST("/notifications", { body: { type: "SIMPLE", content: "Hello", broadcast: true } });
    // @ts-expect-error `type` is SIMPLE, SURVEY, RADIO or CHECKBOX
    client.POST("/notifications", { body: { type: "POPUP", title: "Hi", content: "Hello", broadcast: true } });
    // @ts-expect-error RADIO needs `radio`
    client.POST("/notifications", { body: { type: "RADIO", title: "Pick", content: "One", broadcast: true } });
    // @ts-expect-error `send_at` is Unix seconds or "now"
    client.POST("/notifications", { body: { type: "SIMPLE", title: "Hi", content: "Hello", broadcast: true, send_at: "later" } });
  });

  test("GET operations take no body", () => {
    // @ts-expect-error GET /webhooks has no request body
    client.GET("/webhooks", { body: { event: "login" } });
  });
});

describe("responses", () => {
  test("each operation's data is its own 200 envelope, error is the Problem", async () => {
    const widget = await client.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } });
    expectTypeOf(widget.data).toEqualTypeOf<S["WidgetReadResponse"] | undefined>();
    expectTypeOf(widget.error).toEqualTypeOf<Problem | undefined>();
    expectTypeOf(widget.response).toEqualTypeOf<Response>();

    const activity = await client.GET("/users/{id}/activity", { params: { path: { id: "usr_7d2e9a4c1b6f" } } });
    expectTypeOf(activity.data).toEqualTypeOf<S["UserActivityFindResponse"] | undefined>();
    expectTypeOf(activity.error).toEqualTypeOf<Problem | undefined>();

    const reports = await client.GET("/reports/encryption");
    expectTypeOf(reports.data).toEqualTypeOf<S["EncryptionReportsResponse"] | undefined>();

    const provider = await client.PUT("/sms/providers/{id}", { params: { path: { id: "sms_2c7e9b4f1a6d" } }, body: {} });
    expectTypeOf(provider.data).toEqualTypeOf<S["SmsProviderUpdateResponse"] | undefined>();
    expectTypeOf(provider.error).toEqualTypeOf<Problem | undefined>();

    const email = await client.POST("/custom/emails", {
      body: { type: "SENDGRID", email_from: "a@acme-shop.example", email_admin: "b@acme-shop.example" },
    });
    expectTypeOf(email.data).toEqualTypeOf<S["EmailSaveResponse"] | undefined>();

    const notification = await client.POST("/notifications", { body: { type: "SIMPLE", title: "t", content: "c", broadcast: true } });
    expectTypeOf(notification.data).toEqualTypeOf<S["NotificationCreateResponse"] | undefined>();
    expectTypeOf(notification.error).toEqualTypeOf<Problem | undefined>();

    const webhook = await client.GET("/webhooks/{id}", { params: { path: { id: "whk_3a7f1c9e5b2d" } } });
    expectTypeOf(webhook.data).toEqualTypeOf<S["WebhookReadResponse"] | undefined>();

    const history = await client.GET("/webhooks/{id}/history", { params: { path: { id: "whk_3a7f1c9e5b2d" } } });
    expectTypeOf(history.data).toEqualTypeOf<S["WebhookHistoryResponse"] | undefined>();

    const webhooks = await client.GET("/webhooks");
    expectTypeOf(webhooks.data).toEqualTypeOf<S["WebhookFindResponse"] | undefined>();
  });

  test("data.result and data.type narrow to the operation's own shapes", async () => {
    // The data of an answer that came: `!` narrows away the error case without a branch, so
    // every assertion below is checked against the operation's own type.
    const data = (await client.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } })).data!;
    expectTypeOf(data.type).toEqualTypeOf<"api.application.widget.read">();
    expectTypeOf(data.result.color.primary).toEqualTypeOf<string>();
    expectTypeOf(data.result.domain.port).toEqualTypeOf<number>();
    // @ts-expect-error a single read has no paging meta
    data.meta;

    const list = (await client.GET("/users/{id}/activity", { params: { path: { id: "usr_7d2e9a4c1b6f" } } })).data!;
    expectTypeOf(list.result).toEqualTypeOf<S["Activity"][]>();
    expectTypeOf(list.meta).toEqualTypeOf<S["PageMeta"]>();
    expectTypeOf(list.meta.total_count).toEqualTypeOf<number>();
    // Addresses are strings (a format-only anyOf once made this `unknown`).
    expectTypeOf(list.result[0]!.ip_source).toEqualTypeOf<string>();

    const history = (await client.GET("/webhooks/{id}/history", { params: { path: { id: "whk_3a7f1c9e5b2d" } } })).data!;
    expectTypeOf(history.result[0]!.status).toEqualTypeOf<"SUCCESS" | "FAILED">();
    expectTypeOf(history.result[0]!.response_code).toEqualTypeOf<number | null>();

    const email = (
      await client.POST("/custom/emails", {
        body: { type: "SES", email_from: "a@acme-shop.example", email_admin: "b@acme-shop.example" },
      })
    ).data!;
    // The stored auth comes back only as an opaque token, never the submitted object.
    expectTypeOf(email.result.auth).toEqualTypeOf<string>();
    expectTypeOf(email.result.type).toEqualTypeOf<"SENDGRID" | "SES">();

    const notification = (
      await client.POST("/notifications", {
        body: { type: "SIMPLE", title: "t", content: "c", broadcast: true },
      })
    ).data!;
    expectTypeOf(notification.result.type).toEqualTypeOf<S["NotificationType"]>();
    expectTypeOf(notification.result.send_at).toEqualTypeOf<string>();
  });

  test("the Problem carries a closed set of codes and typed field errors", async () => {
    const error = (await client.GET("/webhooks")).error!;
    expectTypeOf(error.status).toEqualTypeOf<number>();
    // The closed codes, and the 501's own (its schema is NotImplementedProblem).
    expectTypeOf(error.code).toEqualTypeOf<S["Problem"]["code"] | "not_implemented">();
    expectTypeOf(error.errors).toEqualTypeOf<S["ProblemError"][] | undefined>();
    // @ts-expect-error `not_found` is a code, `missing` is not
    error.code === "missing";
  });
});
