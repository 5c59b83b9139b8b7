// The package's MSW handlers against `npx authsvc-api mock` (MOCK_URL, started by
// test/package/consumer.test.ts): the same requests to both, statuses, bodies and the headers
// a frontend reads compared, the table printed. Requests a correct client sends (the demo
// key; the handlers check no credentials or values, the mock does): reads with the demo ids
// and others, lists and their pages, writes the server's rules answer or refuse, every
// `Prefer` switch, the query switches. Timestamps a write stamps with its own clock are
// compared by their form.
import { createHandlers } from "@authsvc/app-api-mock/msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect, test } from "vitest";

const mockUrl = process.env.MOCK_URL!;
const handlersUrl = "https://api.parity.test/v1";
const server = setupServer(...createHandlers({ baseUrl: handlersUrl }));
// The mock's own URL is not the handlers': those requests go out to it.
beforeAll(() => server.listen({ onUnhandledFrame: "bypass", onUnhandledRequest: "bypass" } as const));
afterAll(() => server.close());

const bearer = { authorization: "Bearer ak_live_acme_4f9e2b7c1d8a6e3f" };
const keyPair = { "x-api-key": "ak_live_acme_4f9e2b7c1d8a6e3f", "x-api-secret": "as_live_acme_9b1e6d3f7a2c5e8b" };
const json = { "content-type": "application/json" };

interface Sent {
  name: string;
  method?: "GET" | "PUT" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

const requests: Sent[] = [
  { name: "GET a demo widget", path: "/widgets/wgt_5a3c8e1f7b92" },
  { name: "GET another widget id", path: "/widgets/wgt_other" },
  { name: "GET a demo webhook", path: "/webhooks/whk_3a7f1c9e5b2d" },
  { name: "GET another webhook id", path: "/webhooks/whk_aaaaaaaaaaaa" },
  { name: "GET /webhooks", path: "/webhooks" },
  { name: "GET /webhooks?limit=20&page=1", path: "/webhooks?limit=20&page=1" },
  { name: "GET /webhooks?page=2 (past the end)", path: "/webhooks?page=2" },
  { name: "GET a webhook's history, another id", path: "/webhooks/whk_bbbbbbbbbbbb/history" },
  { name: "GET a user's activity", path: "/users/usr_7d2e9a4c1b6f/activity?limit=10" },
  { name: "GET /reports/encryption", path: "/reports/encryption" },
  { name: "GET /reports/encryption, start after end", path: "/reports/encryption?start_date=1798761599&end_date=1767225600" },
  { name: "GET with Prefer: code=404", path: "/webhooks/whk_cccccccccccc", headers: { prefer: "code=404" } },
  { name: "GET with Prefer: code=429", path: "/webhooks", headers: { prefer: "code=429" } },
  { name: "GET with Prefer: code=503", path: "/widgets/wgt_5a3c8e1f7b92", headers: { prefer: "code=503" } },
  { name: "GET with Prefer: code=500", path: "/users/usr_dddddddddddd/activity", headers: { prefer: "code=500" } },
  { name: "GET with Prefer: code=401", path: "/widgets/wgt_5a3c8e1f7b92", headers: { prefer: "code=401" } },
  { name: "GET with ?__code=404", path: "/webhooks/whk_eeeeeeeeeeee?__code=404" },
  { name: "GET with Prefer: code=418 (not documented)", path: "/widgets/wgt_5a3c8e1f7b92", headers: { prefer: "code=418" } },
  { name: "GET with Prefer: code=abc", path: "/widgets/wgt_5a3c8e1f7b92", headers: { prefer: "code=abc" } },
  { name: "GET with Prefer: example=ConflictProblem (another operation's)", path: "/widgets/wgt_5a3c8e1f7b92", headers: { prefer: "code=404, example=ConflictProblem" } },
  { name: "GET with Prefer: dynamic=maybe", path: "/webhooks", headers: { prefer: "dynamic=maybe" } },
  { name: "PUT {} on the demo provider", method: "PUT", path: "/sms/providers/sms_9e4a1d7c3b2f", body: {} },
  { name: "PUT is_active=false, a name, sort UP", method: "PUT", path: "/sms/providers/sms_9e4a1d7c3b2f", body: { is_active: false, name: "Paused", sort: "UP" } },
  { name: "PUT is_default=false on the default provider", method: "PUT", path: "/sms/providers/sms_2c7e9b4f1a6d", body: { is_default: false } },
  { name: "PUT an id the seed does not have", method: "PUT", path: "/sms/providers/sms_ffffffffffff", body: { countries: ["DE"] } },
  {
    name: "PUT with Prefer: code=409, example=ConflictProblem",
    method: "PUT",
    path: "/sms/providers/sms_9e4a1d7c3b2f",
    body: {},
    headers: { prefer: "code=409, example=ConflictProblem" },
  },
  {
    name: "POST /custom/emails, another sender",
    method: "POST",
    path: "/custom/emails",
    body: { type: "SENDGRID", email_from: "other@news.acme-shop.example", email_admin: "admin@acme-shop.example", from_name: "Acme News" },
  },
  { name: "POST /notifications, a broadcast", method: "POST", path: "/notifications", body: { type: "SIMPLE", title: "Hello", content: "Hi there", broadcast: true } },
  {
    name: "POST /notifications to a user who never logged in",
    method: "POST",
    path: "/notifications",
    body: { type: "SIMPLE", title: "Hello", content: "Hi there", receivers: ["nobody@acme-shop.example"] },
  },
];

/** The headers a frontend reads. */
const readHeaders = [
  "content-type",
  "x-request-id",
  "retry-after",
  "www-authenticate",
  "ratelimit",
  "ratelimit-policy",
  "access-control-allow-origin",
  "access-control-expose-headers",
];

/** A timestamp a write stamps with its own clock, by its form: two stampings a moment apart read alike. */
const stamps = (text: string) =>
  text.replace(/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/g, (stamp) => (Date.now() - Date.parse(JSON.parse(stamp)) < 600_000 ? '"<now>"' : stamp));

async function send(base: string, sent: Sent, index: number) {
  const headers = {
    ...(sent.path === "/notifications" ? keyPair : bearer),
    ...(sent.body === undefined ? {} : json),
    "x-request-id": `parity-${index}`,
    ...sent.headers,
  };
  const response = await fetch(`${base}${sent.path}`, { method: sent.method ?? "GET", headers, ...(sent.body === undefined ? {} : { body: JSON.stringify(sent.body) }) });
  const text = await response.text();
  return {
    status: response.status,
    body: stamps(text),
    headers: Object.fromEntries(readHeaders.map((name) => [name, response.headers.get(name)])),
  };
}

test(`the handlers answer what npx authsvc-api mock answers (${requests.length} requests)`, { timeout: 60_000 }, async () => {
  const rows: string[] = [];
  const differences: string[] = [];
  for (const [index, sent] of requests.entries()) {
    const [mock, handlers] = await Promise.all([send(mockUrl, sent, index), send(handlersUrl, sent, index)]);
    // The mock's problems name its own path (`instance`): the handlers' name theirs, the same path.
    const differs = [
      ...(mock.status !== handlers.status ? [`status ${mock.status} / ${handlers.status}`] : []),
      ...(mock.body !== handlers.body ? [`body ${mock.body} / ${handlers.body}`] : []),
      ...readHeaders.filter((name) => mock.headers[name] !== handlers.headers[name]).map((name) => `${name}: ${mock.headers[name]} / ${handlers.headers[name]}`),
    ];
    rows.push(
      `| ${sent.method ?? "GET"} ${sent.path}${sent.headers?.prefer ? ` (Prefer: ${sent.headers.prefer})` : ""} | ${mock.status} | ${differs.length === 0 ? "same" : differs.join("; ")} |`,
    );
    if (differs.length > 0) differences.push(`${sent.name}: ${differs.join("; ")}`);
  }
  console.log(["| request | status | handlers vs mock |", "|---|---:|---|", ...rows].join("\n"));
  expect(differences).toEqual([]);
});
