// The same requests at the mock and at the reference server, each answer cut down to what a
// frontend's code branches on (status, problem code, the fields a 400 names, the path id in
// the answer, paging meta, the request id, CORS headers), and the cases where the two differ.
// docs/mock.md holds that list of differences as its table; parity.test.ts keeps them equal.
import { appA, appB } from "../support/demo.js";
import { exampleBody } from "../support/document.js";

export interface ParityCase {
  /** What the request is, as the docs table names it. */
  name: string;
  method: "GET" | "PUT" | "POST";
  /** Below the base URL (`/v1`). */
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** A raw body (sent as is) instead of `body`. */
  rawBody?: string;
}

const bearer = (app = appA) => ({ authorization: `Bearer ${app.apiKey}` });
const keyPair = (app = appA) => ({ "x-api-key": app.apiKey, "x-api-secret": app.apiSecret });
const json = { "content-type": "application/json" };

/** The requests both answer; ids are the demo seed's (application A unless named). */
export const parityCases: ParityCase[] = [
  { name: "GET a demo widget", method: "GET", path: "/widgets/wgt_5a3c8e1f7b92", headers: bearer() },
  { name: "GET an unknown widget id", method: "GET", path: "/widgets/wgt_000000000000", headers: bearer() },
  { name: "GET another application's widget", method: "GET", path: "/widgets/wgt_5a3c8e1f7b92", headers: bearer(appB) },
  { name: "GET with an unknown API key", method: "GET", path: "/widgets/wgt_5a3c8e1f7b92", headers: { authorization: "Bearer ak_not_a_key" } },
  { name: "GET without credentials", method: "GET", path: "/webhooks" },
  { name: "GET with X-Api-Key/X-Api-Secret instead of Bearer", method: "GET", path: "/webhooks", headers: keyPair() },
  { name: "GET a demo webhook", method: "GET", path: "/webhooks/whk_3a7f1c9e5b2d", headers: bearer() },
  { name: "GET the other demo webhook", method: "GET", path: "/webhooks/whk_8d1f6b3a9c4e", headers: bearer() },
  { name: "GET an unknown webhook's history", method: "GET", path: "/webhooks/whk_000000000000/history", headers: bearer() },
  { name: "GET an unknown user's activity", method: "GET", path: "/users/usr_000000000000/activity", headers: bearer() },
  { name: "GET /webhooks?limit=101", method: "GET", path: "/webhooks?limit=101", headers: bearer() },
  { name: "GET /webhooks?limit=", method: "GET", path: "/webhooks?limit=", headers: bearer() },
  { name: "GET /webhooks?limit=0x10", method: "GET", path: "/webhooks?limit=0x10", headers: bearer() },
  { name: "GET /webhooks?pgae=2 (unknown parameter)", method: "GET", path: "/webhooks?limit=20&pgae=2", headers: bearer() },
  { name: "GET /reports/encryption?account=", method: "GET", path: "/reports/encryption?account=", headers: bearer() },
  { name: "GET /reports/encryption?region=&device_version=", method: "GET", path: "/reports/encryption?region=&device_version=", headers: bearer() },
  { name: "GET /reports/encryption?start_date after end_date", method: "GET", path: "/reports/encryption?start_date=1798761599&end_date=1767225600", headers: bearer() },
  { name: "GET a path outside /v1's operations", method: "GET", path: "/widgets", headers: bearer() },
  { name: "GET a path with bad percent-encoding", method: "GET", path: "/widgets/%E0%A4%A", headers: bearer() },
  { name: "GET with X-Request-Id", method: "GET", path: "/webhooks", headers: { ...bearer(), "x-request-id": "parity-req-1" } },
  { name: "GET /webhooks page 1 with Prefer: dynamic=true", method: "GET", path: "/webhooks?limit=10&page=1", headers: { ...bearer(), prefer: "dynamic=true" } },
  { name: "GET /webhooks from a browser origin", method: "GET", path: "/webhooks", headers: { ...bearer(), origin: "http://localhost:5173" } },
  { name: "PUT the demo non-default SMS provider {}", method: "PUT", path: "/sms/providers/sms_9e4a1d7c3b2f", headers: { ...bearer(), ...json }, body: {} },
  { name: "PUT the demo default SMS provider {}", method: "PUT", path: "/sms/providers/sms_2c7e9b4f1a6d", headers: { ...bearer(), ...json }, body: {} },
  {
    name: "PUT is_default=false on the default provider",
    method: "PUT",
    path: "/sms/providers/sms_2c7e9b4f1a6d",
    headers: { ...bearer(), ...json },
    body: { is_default: false },
  },
  { name: "PUT an unknown SMS provider", method: "PUT", path: "/sms/providers/sms_000000000000", headers: { ...bearer(), ...json }, body: {} },
  {
    name: "PUT invalid fields (countries, name)",
    method: "PUT",
    path: "/sms/providers/sms_9e4a1d7c3b2f",
    headers: { ...bearer(), ...json },
    body: { countries: ["es", 1], name: "" },
  },
  { name: "PUT an unknown body field", method: "PUT", path: "/sms/providers/sms_9e4a1d7c3b2f", headers: { ...bearer(), ...json }, body: { colour: "red" } },
  { name: "PUT malformed JSON", method: "PUT", path: "/sms/providers/sms_9e4a1d7c3b2f", headers: { ...bearer(), ...json }, rawBody: '{"name":' },
  { name: "PUT as text/plain", method: "PUT", path: "/sms/providers/sms_9e4a1d7c3b2f", headers: { ...bearer(), "content-type": "text/plain" }, rawBody: "{}" },
  {
    name: "PUT a 120 kB body",
    method: "PUT",
    path: "/sms/providers/sms_9e4a1d7c3b2f",
    headers: { ...bearer(), ...json },
    rawBody: JSON.stringify({ name: "x".repeat(120 * 1024) }),
  },
  { name: "POST /notifications with the key pair", method: "POST", path: "/notifications", headers: { ...keyPair(), ...json }, body: exampleBody("createNotification") },
  {
    name: "POST /notifications with an unknown secret",
    method: "POST",
    path: "/notifications",
    headers: { ...keyPair(), "x-api-secret": "as_wrong", ...json },
    body: exampleBody("createNotification"),
  },
  { name: "POST /notifications with Bearer", method: "POST", path: "/notifications", headers: { ...bearer(), ...json }, body: exampleBody("createNotification") },
  // Writes answer what was asked: the written values are in the summary. The server keeps
  // what each write changed, so a case never reads back what an earlier case changed.
  {
    name: "POST /custom/emails keeping the type, another sender",
    method: "POST",
    path: "/custom/emails",
    headers: { ...bearer(), ...json },
    body: { type: "SENDGRID", email_from: "other@news.acme-shop.example", email_admin: "admin@acme-shop.example", from_name: "Acme News" },
  },
  { name: "POST /custom/emails", method: "POST", path: "/custom/emails", headers: { ...bearer(), ...json }, body: exampleBody("saveEmailTransport") },
  {
    name: "POST /notifications to two receivers at a set time",
    method: "POST",
    path: "/notifications",
    headers: { ...keyPair(), ...json },
    body: { type: "SIMPLE", title: "Hello", content: "Hi there", level: 2, send_at: 1894698000, receivers: ["usr_7d2e9a4c1b6f", "Tomas.Reyes@acme-shop.example"] },
  },
  {
    name: "POST /notifications to a user who never logged in",
    method: "POST",
    path: "/notifications",
    headers: { ...keyPair(), ...json },
    body: { type: "SIMPLE", title: "Hello", content: "Hi there", receivers: ["nobody@acme-shop.example"] },
  },
  {
    name: "PUT is_active=false and a new name on the default provider",
    method: "PUT",
    path: "/sms/providers/sms_2c7e9b4f1a6d",
    headers: { ...bearer(), ...json },
    body: { is_active: false, name: "Paused gateway" },
  },
  {
    name: "PUT the documented request (sort UP, FR added)",
    method: "PUT",
    path: "/sms/providers/sms_9e4a1d7c3b2f",
    headers: { ...bearer(), ...json },
    body: exampleBody("updateSmsProvider"),
  },
];

/** A write's result as a frontend reads it back: every field but the id (its own part) and the sealed `auth` (opaque, sealed under each process's key). */
function written(result: Record<string, unknown>): string {
  const { id: _id, auth: _auth, ...fields } = result;
  return JSON.stringify(fields);
}

/** What a frontend branches on in one answer, as one line of text. */
export async function summarize(response: Response, sent: ParityCase): Promise<string> {
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const parts = [String(response.status)];
  if (body?.code) parts.push(body.code);
  if (Array.isArray(body?.errors)) {
    const named = body.errors.map((e: { in?: string; name?: string; pointer?: string }) => `${e.in ?? "?"}:${e.name ?? e.pointer ?? ""}`);
    parts.push(`[${[...new Set(named)].sort().join(" ")}]`);
  }
  const pathId = /\/((?:wgt|whk|sms|usr)_[A-Za-z0-9]+)/.exec(sent.path)?.[1];
  const id = body?.result && !Array.isArray(body.result) ? body.result.id : undefined;
  if (pathId && id !== undefined && !sent.path.endsWith("/history") && !sent.path.endsWith("/activity")) parts.push(id === pathId ? "path id echoed" : "another id");
  if (sent.method !== "GET" && response.ok && body?.result && !/dynamic=true/.test(sent.headers?.prefer ?? "")) parts.push(written(body.result));
  if (body?.meta && /dynamic=true/.test(sent.headers?.prefer ?? "")) {
    const { current_page: page, page_count: pages, current_count: count } = body.meta;
    const consistent = page === 1 && count === body.result.length && count <= 10 && pages <= 1000;
    parts.push(consistent ? "meta consistent" : "meta inconsistent");
  }
  const sentId = sent.headers?.["x-request-id"];
  const gotId = response.headers.get("x-request-id");
  if (sentId) parts.push(gotId === sentId ? "id echoed" : `id ${gotId ? "replaced" : "missing"}`);
  if (sent.headers?.origin) {
    parts.push(`ACAO ${response.headers.get("access-control-allow-origin") ?? "none"}`);
    parts.push(`credentials ${response.headers.get("access-control-allow-credentials") ?? "none"}`);
    const exposed = (response.headers.get("access-control-expose-headers") ?? "")
      .toLowerCase()
      .split(/\s*,\s*/)
      .filter(Boolean);
    parts.push(`expose ${["www-authenticate", "x-request-id", "retry-after"].every((h) => exposed.includes(h)) ? "all declared" : "some declared missing"}`);
  }
  return parts.join(" ");
}

/** Sends one case to a base URL and summarizes the answer. */
export async function ask(baseUrl: string, sent: ParityCase): Promise<string> {
  const body = sent.rawBody ?? (sent.body === undefined ? undefined : JSON.stringify(sent.body));
  const response = await fetch(`${baseUrl}${sent.path}`, { method: sent.method, headers: sent.headers, body });
  return summarize(response, sent);
}

export interface Difference {
  name: string;
  server: string;
  mock: string;
}

/** Every case whose summaries differ, in corpus order. */
export async function differences(serverUrl: string, mockUrl: string): Promise<Difference[]> {
  const found: Difference[] = [];
  for (const sent of parityCases) {
    const [server, mock] = [await ask(serverUrl, sent), await ask(mockUrl, sent)];
    if (server !== mock) found.push({ name: sent.name, server, mock });
  }
  return found;
}

/** The differences as the markdown table docs/mock.md shows. */
export function differenceTable(rows: Difference[]): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|");
  return ["| Request | Server | Mock |", "| --- | --- | --- |", ...rows.map((row) => `| ${cell(row.name)} | ${cell(row.server)} | ${cell(row.mock)} |`)].join("\n");
}
