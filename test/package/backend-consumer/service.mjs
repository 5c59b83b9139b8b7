// A service implementing the API in its own project, on the package's Express entry, over a
// small in-memory map seeded from the document's examples (application A holds the records,
// application B none). Written as a consumer would; test/package/backend-consumer.test.ts runs it.
import { createServer } from "node:http";
import doc from "@authsvc/app-api-contract/openapi.json" with { type: "json" };
import { conflict, createContractApp, invalid, notFound } from "@authsvc/app-api-server/express";

const get = (node) => (node.$ref ? node.$ref.slice(2).split("/").reduce((at, key) => at[key], doc) : node);
const example = (path, method = "get") =>
  structuredClone(get(Object.values(get(doc.paths[path][method].responses[200]).content["application/json"].examples)[0]).value);
const A = { applicationId: "app_a", organizationId: "org_a" }, B = { applicationId: "app_b", organizationId: "org_b" };
const keys = { "key-a": [A, "secret-a"], "key-b": [B, "secret-b"] };

const provider = example("/sms/providers/{id}", "put").result;
const data = {
  [A.applicationId]: {
    widgets: [example("/widgets/{id}").result], activity: example("/users/{id}/activity").result,
    reports: example("/reports/encryption").result, webhooks: example("/webhooks").result, history: example("/webhooks/{id}/history").result,
    providers: [{ ...provider, id: "sms_1", is_default: true, sort: 1 }, { ...provider, is_default: false, sort: 2 }],
  },
  [B.applicationId]: { widgets: [], activity: [], reports: [], webhooks: [], history: [], providers: [] },
};
const of = (caller) => data[caller.applicationId];
const find = (list, id, what) => list.find((record) => record.id === id) ?? (() => { throw notFound(`No ${what} ${id}.`); })();
const page = (type, all, { limit, page }) => ({
  type, result: all.slice((page - 1) * limit, page * limit),
  meta: { total_count: all.length, page_count: Math.ceil(all.length / limit), current_count: all.slice((page - 1) * limit, page * limit).length, current_page: all.length ? page : 1 },
});

const handlers = {
  readWidget: ({ path, caller }) => ({ type: "api.application.widget.read", result: find(of(caller).widgets, path.id, "widget") }),
  findUserActivity: ({ path, query, caller }) => {
    const activity = of(caller).activity.filter((record) => record.account_id === path.id);
    if (!activity.length) throw notFound(`No user ${path.id}.`);
    return page("api.application.user.activity.find", activity, query);
  },
  findEncryptionReports: ({ query, caller }) => {
    if (query.start_date > query.end_date) throw invalid("start_date is after end_date.", [{ in: "query", name: "start_date", message: "must be <= end_date" }]);
    return page("api.application.reports.encryption", of(caller).reports, query);
  },
  updateSmsProvider: ({ path, body, caller }) => {
    const providers = of(caller).providers.sort((x, y) => x.sort - y.sort), found = find(providers, path.id, "SMS provider");
    if (found.is_default && body.is_default === false) throw conflict(`${found.id} is the default provider.`);
    const { sort, ...fields } = body, other = providers[found.sort - 1 + (sort === "UP" ? -1 : 1)];
    if (sort && other) [found.sort, other.sort] = [other.sort, found.sort];
    return { type: "api.application.sms.provider.update", result: Object.assign(found, fields) };
  },
  saveEmailTransport: () => example("/custom/emails", "post"),
  createNotification: ({ body, caller }) => {
    const unknown = (body.receivers ?? []).find((receiver) => !of(caller).activity.some((record) => record.account_id === receiver));
    if (unknown) throw invalid(`No receiver ${unknown}.`, [{ in: "body", pointer: "/receivers", message: `${unknown} does not exist` }]);
    if (typeof body.send_at === "number" && body.send_at < Date.now() / 1000 + 60) throw invalid("send_at is in the past.", [{ in: "body", pointer: "/send_at", message: "must be 60 s ahead" }]);
    return example("/notifications", "post");
  },
  readWebhook: ({ path, caller }) => ({ type: "api.application.webhook.read", result: find(of(caller).webhooks, path.id, "webhook") }),
  findWebhookHistory: ({ path, query, caller }) => {
    const webhook = find(of(caller).webhooks, path.id, "webhook");
    return page("api.application.webhook.history", of(caller).history.filter((record) => record.webhook_id === webhook.id), query);
  },
  findWebhooks: ({ query, caller }) => page("api.application.webhook.find", of(caller).webhooks, query),
};

const app = createContractApp({
  handlers,
  authenticate: {
    authenticateBearer: async (key) => keys[key]?.[0],
    authenticateKeyPair: async (key, secret) => (keys[key]?.[1] === secret ? keys[key][0] : undefined),
  },
});
const server = createServer(app).listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${server.address().port}/v1`));
