// What a frontend writes with the package's helpers, checked by the compiler: paginate()
// yields each list's own record type, the typed examples are assignable to the types of the
// answers they stand for, and the MSW helpers accept only documented statuses and examples.
// Each `@ts-expect-error` must be caused by the mistake named beside it.
import { HttpResponse } from "msw";
import { describe, expectTypeOf, test } from "vitest";
import { createApiClient, paginate } from "../../client/index.js";
import { copyOf, EmailSaveSes, NotificationCreate, WebhookFind, WidgetRead, type DeepReadonly } from "../../generated/examples.js";
import type { components, paths } from "../../generated/schema.js";
import { answer, createHandlers, override } from "../../msw/index.js";

type S = components["schemas"];
const client = createApiClient({ baseUrl: "http://127.0.0.1:4010/v1", apiKey: "k" });
const base = "http://127.0.0.1:4010/v1";

describe("paginate()", () => {
  test("yields the record type of each list", async () => {
    for await (const webhook of paginate(client, "/webhooks")) expectTypeOf(webhook).toEqualTypeOf<S["Webhook"]>();
    for await (const record of paginate(client, "/webhooks/{id}/history", { path: { id: "whk_1" } })) {
      expectTypeOf(record).toEqualTypeOf<S["WebhookHistoryRecord"]>();
    }
    for await (const activity of paginate(client, "/users/{id}/activity", { path: { id: "usr_1" }, query: { limit: 50 } })) {
      expectTypeOf(activity).toEqualTypeOf<S["Activity"]>();
    }
  });

  test("only lists, with their own parameters", () => {
    // @ts-expect-error GET /widgets/{id} is not a paged list
    paginate(client, "/widgets/{id}", { path: { id: "wgt_1" } });
    // @ts-expect-error the activity list needs the user id
    paginate(client, "/users/{id}/activity", {});
    // @ts-expect-error `limit` is a number
    paginate(client, "/webhooks", { query: { limit: "10" } });
  });
});

describe("typed examples", () => {
  test("each example is a read-only value of the type of what it stands for, literals kept", () => {
    const read: DeepReadonly<paths["/widgets/{id}"]["get"]["responses"][200]["content"]["application/json"]> = WidgetRead;
    const list: DeepReadonly<S["WebhookFindResponse"]> = WebhookFind;
    const body: DeepReadonly<S["EmailSettingsSave"]> = EmailSaveSes;
    const created: DeepReadonly<S["NotificationCreateResponse"]> = NotificationCreate;
    expectTypeOf(WidgetRead.type).toEqualTypeOf<"api.application.widget.read">();
    void [read, list, body, created];
  });

  test("read-only: changing one does not compile; copyOf() gives a writable copy of the schema's type", () => {
    // @ts-expect-error an example is read-only
    WidgetRead.result.name = "Renamed";
    // @ts-expect-error its arrays too
    WebhookFind.result.push(WebhookFind.result[0]);
    const list: S["WebhookFindResponse"] = copyOf(WebhookFind);
    list.result.pop();
    const body: S["EmailSettingsSave"] = copyOf(EmailSaveSes);
    void body;
  });
});

describe("MSW helpers", () => {
  test("documented statuses and examples only", () => {
    answer("readWidget", base, { status: 404 });
    answer("updateSmsProvider", base, { status: 409, example: "ConflictProblem" });
    // @ts-expect-error GET /widgets/{id} documents no 409
    answer("readWidget", base, { status: 409 });
    // @ts-expect-error ConflictProblem is not an example of readWidget's 404
    answer("readWidget", base, { status: 404, example: "ConflictProblem" });
    createHandlers({ baseUrl: base, choose: { readWebhook: { status: 404 } } });
    // @ts-expect-error findWebhooks documents no 404
    createHandlers({ baseUrl: base, choose: { findWebhooks: { status: 404 } } });
  });

  test("override: typed path parameters and answers", () => {
    override("readWidget", base, ({ params }) => {
      expectTypeOf(params.id).toEqualTypeOf<string>();
      return HttpResponse.json(WidgetRead);
    });
    // @ts-expect-error the answer must be a documented body of readWidget
    override("readWidget", base, () => HttpResponse.json({ type: "api.application.webhook.find" }));
  });
});
