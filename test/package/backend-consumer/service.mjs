// A service implementing the API in its own project, on the package's Express entry, over a
// small in-memory map seeded from the document's examples (application A holds the records,
// application B none), mounted at /api inside the service's own Express app (a host route,
// the host's express.json() after it) and served by the package's `listen` (SIGTERM drains).
// Written as a consumer would; test/package/backend-consumer.test.ts runs it.
import express from "express";
import doc from "@authsvc/app-api-contract/openapi.json" with { type: "json" };
import { conflict, createContractApp, invalid, listen, notFound } from "@authsvc/app-api-server/express";

const get = (node) =>
  node.$ref
    ? node.$ref
        .slice(2)
        .split("/")
        .reduce((at, key) => at[key], doc)
    : node;
const example = (path, method = "get") => structuredClone(get(Object.values(get(doc.paths[path][method].responses[200]).content["application/json"].examples)[0]).value);
const A = { applicationId: "app_a", organizationId: "org_a" },
  B = { applicationId: "app_b", organizationId: "org_b" };
const keys = { "key-a": [A, "secret-a"], "key-b": [B, "secret-b"] };

const provider = example("/sms/providers/{id}", "put").result;
const data = {
  [A.applicationId]: {
    widgets: [example("/widgets/{id}").result],
    activity: example("/users/{id}/activity").result,
    reports: example("/reports/encryption").result,
    webhooks: example("/webhooks").result,
    history: example("/webhooks/{id}/history").result,
    providers: [
      { ...provider, id: "sms_1", is_default: true, sort: 1 },
      { ...provider, is_default: false, sort: 2 },
    ],
  },
  [B.applicationId]: { widgets: [], activity: [], reports: [], webhooks: [], history: [], providers: [] },
};
const of = (caller) => data[caller.applicationId];
const find = (list, id, what) =>
  list.find((record) => record.id === id) ??
  (() => {
    throw notFound(`No ${what} ${id}.`);
  })();
const page = (type, all, { limit, page }) => ({
  type,
  result: all.slice((page - 1) * limit, page * limit),
  meta: {
    total_count: all.length,
    page_count: Math.ceil(all.length / limit),
    current_count: all.slice((page - 1) * limit, page * limit).length,
    current_page: all.length ? page : 1,
  },
});

// Every filter of GET /reports/encryption (the conformance run checks each one).
const seconds = (iso) => Math.floor(Date.parse(iso) / 1000);
const groupsOf = (accountId) =>
  data[A.applicationId].activity
    .filter((record) => record.account_id === accountId)
    .flatMap((record) => record.groups ?? [])
    .map(Number);
const matches = (report, q) =>
  (q.group === undefined || groupsOf(report.account_id).includes(Number(q.group))) &&
  (q.ip === undefined || report.ip_source === q.ip || report.ip_device === q.ip) &&
  (q.account === undefined || report.account_id === q.account) &&
  (q.email === undefined || report.user?.email?.toLowerCase() === q.email.toLowerCase()) &&
  (q.country === undefined || report.country?.code === q.country) &&
  (q.region === undefined || report.region?.code === q.region) &&
  (q.device_type === undefined || report.device?.type === q.device_type) &&
  (q.device_version === undefined || report.device?.version === q.device_version) &&
  (q.status === undefined || report.status === q.status) &&
  (q.start_date === undefined || seconds(report.created_at) >= q.start_date) &&
  (q.end_date === undefined || seconds(report.created_at) <= q.end_date);

const handlers = {
  readWidget: ({ path, caller }) => ({ type: "api.application.widget.read", result: find(of(caller).widgets, path.id, "widget") }),
  findUserActivity: ({ path, query, caller }) => {
    const activity = of(caller).activity.filter((record) => record.account_id === path.id);
    if (!activity.length) throw notFound(`No user ${path.id}.`);
    return page("api.application.user.activity.find", activity, query);
  },
  findEncryptionReports: ({ query, caller }) => {
    if (query.start_date > query.end_date) throw invalid("start_date is after end_date.", [{ in: "query", name: "start_date", message: "must be <= end_date" }]);
    return page(
      "api.application.reports.encryption",
      of(caller).reports.filter((report) => matches(report, query)),
      query,
    );
  },
  updateSmsProvider: ({ path, body, caller }) => {
    const providers = of(caller).providers.sort((x, y) => x.sort - y.sort),
      found = find(providers, path.id, "SMS provider");
    if (found.is_default && body.is_default === false) throw conflict(`${found.id} is the default provider.`);
    const { sort, ...fields } = body,
      other = providers[found.sort - 1 + (sort === "UP" ? -1 : 1)];
    if (sort && other) [found.sort, other.sort] = [other.sort, found.sort];
    return { type: "api.application.sms.provider.update", result: Object.assign(found, fields) };
  },
  saveEmailTransport: () => example("/custom/emails", "post"),
  createNotification: ({ body, caller }) => {
    const unknown = (body.receivers ?? []).find((receiver) => !of(caller).activity.some((record) => record.account_id === receiver));
    if (unknown) throw invalid(`No receiver ${unknown}.`, [{ in: "body", pointer: "/receivers", message: `${unknown} does not exist` }]);
    if (typeof body.send_at === "number" && body.send_at < Date.now() / 1000 + 60)
      throw invalid("send_at is in the past.", [{ in: "body", pointer: "/send_at", message: "must be 60 s ahead" }]);
    return example("/notifications", "post");
  },
  readWebhook: ({ path, caller }) => ({ type: "api.application.webhook.read", result: find(of(caller).webhooks, path.id, "webhook") }),
  findWebhookHistory: ({ path, query, caller }) => {
    const webhook = find(of(caller).webhooks, path.id, "webhook");
    return page(
      "api.application.webhook.history",
      of(caller).history.filter((record) => record.webhook_id === webhook.id),
      query,
    );
  },
  findWebhooks: ({ query, caller }) => page("api.application.webhook.find", of(caller).webhooks, query),
};

const api = createContractApp({
  handlers,
  authenticate: {
    authenticateBearer: async (key) => keys[key]?.[0],
    authenticateKeyPair: async (key, secret) => (keys[key]?.[1] === secret ? keys[key][0] : undefined),
  },
});
const app = express();
app.use("/api", api);
app.use(express.json());
app.get("/health", (_req, res) => res.json({ ok: true }));
const { origin } = await listen(app, { port: Number(process.env.PORT ?? 3000), signals: ["SIGTERM"] });
console.log(`listening on ${origin}/api/v1`);
