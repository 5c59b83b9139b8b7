// The handler contract (server/contract.ts) as a backend developer meets it: a handler map
// must cover every operationId, each handler sees only its operation's parameters and body,
// and must return its operation's 200 body. Each `@ts-expect-error` names the one mistake
// on the line below it; an unused one fails the run.
import { describe, expectTypeOf, test } from "vitest";
import type { OperationId, operations as table } from "../../generated/operations.js";
import type { components, operations, paths } from "../../generated/schema.js";
import type { Handler, Handlers, PathParams, QueryParams, RequestBody, SuccessBody } from "../../server/contract-layer/contract.js";

type S = components["schemas"];
/** Flattens an intersection so it can be compared with a plain object type. */
type Flat<T> = { [K in keyof T]: T[K] };

// Values of the right shapes; type tests are never run, so declarations are enough.
declare const widget: S["Widget"];
declare const activity: S["Activity"];
declare const report: S["EncryptionReport"];
declare const provider: S["SmsProvider"];
declare const transport: S["EmailTransport"];
declare const notification: S["Notification"];
declare const webhook: S["Webhook"];
declare const delivery: S["WebhookHistoryRecord"];
declare const meta: S["PageMeta"];

/** A complete, correct map: the baseline each mistake below departs from. */
const handlers = {
  readWidget: () => ({ type: "api.application.widget.read", result: widget }),
  findUserActivity: () => ({ type: "api.application.user.activity.find", result: [activity], meta }),
  findEncryptionReports: () => ({ type: "api.application.reports.encryption", result: [report], meta }),
  updateSmsProvider: async () => ({ type: "api.application.sms.provider.update", result: provider }),
  saveEmailTransport: async () => ({ type: "api.application.email.save", result: transport }),
  createNotification: async () => ({ type: "api.application.notification.create", result: notification }),
  readWebhook: () => ({ type: "api.application.webhook.read", result: webhook }),
  findWebhookHistory: () => ({ type: "api.application.webhook.history", result: [delivery], meta }),
  findWebhooks: () => ({ type: "api.application.webhook.find", result: [webhook], meta }),
} satisfies Handlers;

describe("the operations table and the generated types agree", () => {
  test("each operationId's method + path in generated/operations.ts is that operation in the schema types", () => {
    type Table = typeof table;
    type Resolved = { [K in OperationId]: paths[Table[K]["path"]][Table[K]["method"]] };
    expectTypeOf<Resolved>().toEqualTypeOf<{ [K in OperationId]: operations[K] }>();
    expectTypeOf<OperationId>().toEqualTypeOf<keyof operations>();
  });

  test("each row's responseType is the `type` its 200 body carries (null for an operation without a JSON 200, e.g. a 204)", () => {
    type Table = typeof table;
    type TypeOf<B> = [B] extends [never] ? null : B extends { type: infer T } ? T : never;
    expectTypeOf<{ [K in OperationId]: Table[K]["responseType"] }>().toEqualTypeOf<{ [K in OperationId]: TypeOf<SuccessBody<K>> }>();
  });
});

describe("a handler map", () => {
  test("one handler per operation compiles", () => {
    expectTypeOf(handlers).toExtend<Handlers>();
  });

  test("a map missing one operation does not compile", () => {
    const { findWebhooks: _left, ...eight } = handlers;
    // @ts-expect-error findWebhooks is missing
    const incomplete: Handlers = eight;
    // @ts-expect-error an operationId of another document (test/express-entry/gadgets/), not of this one
    const extra: Handlers = { ...handlers, deleteGadget: () => ({}) };
    return [incomplete, extra];
  });
});

describe("a handler's input", () => {
  test("path, query and body are the operation's own", () => {
    expectTypeOf<PathParams<"readWidget">>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<PathParams<"findWebhooks">>().toEqualTypeOf<{}>();
    // Paging defaults are applied before the handler runs: never undefined.
    expectTypeOf<Flat<QueryParams<"findWebhooks">>>().toEqualTypeOf<{ limit: number; page: number }>();
    expectTypeOf<QueryParams<"findEncryptionReports">["device_type"]>().toEqualTypeOf<"ANDROID" | "IOS" | undefined>();
    expectTypeOf<RequestBody<"updateSmsProvider">>().toEqualTypeOf<S["SmsProviderUpdate"]>();
    expectTypeOf<RequestBody<"createNotification">>().toEqualTypeOf<S["NotificationCreate"]>();
    expectTypeOf<RequestBody<"readWidget">>().toEqualTypeOf<undefined>();
  });

  test("reading a parameter or body field the operation does not have does not compile", () => {
    const readWidget: Handler<"readWidget"> = ({ path, query, body }) => {
      // @ts-expect-error the path parameter is `id`
      path.widgetId;
      // @ts-expect-error GET /widgets/{id} has no query parameters
      query.limit;
      // @ts-expect-error GET /widgets/{id} has no body
      body.name;
      return { type: "api.application.widget.read", result: widget };
    };
    const updateSmsProvider: Handler<"updateSmsProvider"> = ({ body, caller }) => {
      expectTypeOf(body.sort).toEqualTypeOf<"UP" | "DOWN" | undefined>();
      expectTypeOf(caller.applicationId).toEqualTypeOf<string>();
      // @ts-expect-error the update has no `priority`
      body.priority;
      return { type: "api.application.sms.provider.update", result: provider };
    };
    const createNotification: Handler<"createNotification"> = ({ body }) => {
      // @ts-expect-error `radio` exists only once `type` is narrowed to RADIO
      body.radio;
      // The RADIO member of the body: never, and so failing, if no member has that type.
      expectTypeOf(body).extract<{ type: "RADIO" }>().toHaveProperty("radio").toEqualTypeOf<S["ChoiceItem"][]>();
      return { type: "api.application.notification.create", result: notification };
    };
    return [readWidget, updateSmsProvider, createNotification];
  });
});

describe("a handler's output", () => {
  test("a wrong `type` string does not compile", () => {
    // @ts-expect-error the type of a widget read is api.application.widget.read
    const wrongType: Handler<"readWidget"> = () => ({ type: "api.application.webhook.read", result: widget });
    // @ts-expect-error a wrong `type` in the map is caught too
    const inMap: Handlers = { ...handlers, readWebhook: () => ({ type: "api.application.webhook.find", result: webhook }) };
    return [wrongType, inMap];
  });

  test("a body missing a required field, or of another operation, does not compile", () => {
    const { name: _name, ...nameless } = widget;
    // @ts-expect-error the widget is missing `name`
    const missingField: Handler<"readWidget"> = () => ({ type: "api.application.widget.read", result: nameless });
    // @ts-expect-error a list answer needs `meta`
    const missingMeta: Handler<"findWebhooks"> = () => ({ type: "api.application.webhook.find", result: [webhook] });
    // @ts-expect-error a webhook is not a widget
    const otherResult: Handler<"readWidget"> = () => ({ type: "api.application.widget.read", result: webhook });
    // @ts-expect-error `status` of a history record is SUCCESS or FAILED
    const badEnum: Handler<"findWebhookHistory"> = () => ({ type: "api.application.webhook.history", result: [{ ...delivery, status: "OK" }], meta });
    return [missingField, missingMeta, otherResult, badEnum];
  });
});
