// The bad-input corpus: one row per hostile or broken request, each with the status and
// problem `code` the contract (docs/decisions.md, Errors) requires. `code: null` means a
// success; what Node's own parser refuses is a problem too (server/middleware/client-error.ts).
import { appA } from "../support/demo.js";
import type { RawRequest, RawResponse } from "./raw-http.js";

export interface BadInput extends RawRequest {
  category: string;
  name: string;
  expect: { status: number; code: string | null };
  /** Anything else to hold of the answer; returns what is wrong, if anything. */
  check?: (res: RawResponse) => string | undefined;
}

const key = appA.apiKey;
const secret = appA.apiSecret;
/** The SendGrid key the corpus submits (the scan looks for it). */
export const transportKey = "SG.bad-input-corpus-key";
const widget = "/v1/widgets/wgt_5a3c8e1f7b92";
const provider = "/v1/sms/providers/sms_9e4a1d7c3b2f";
const bearer: [string, string] = ["authorization", `Bearer ${key}`];
const json: [string, string] = ["content-type", "application/json"];
const keyPair: [string, string][] = [
  ["x-api-key", key],
  ["x-api-secret", secret],
];

const notification = { type: "SIMPLE", title: "Maintenance", content: "Sign-in pauses at noon.", broadcast: true, send_at: "now" };
const transport = { type: "SENDGRID", auth: { api_key: transportKey }, email_from: "noreply@acme-shop.example", email_admin: "admin@acme-shop.example" };

const get = (target: string, headers: [string, string][] = [bearer]): RawRequest => ({ method: "GET", target, headers });
const putProvider = (body: string | Buffer, headers: [string, string][] = [bearer, json]): RawRequest => ({ method: "PUT", target: provider, headers, body });
const postEmails = (body: string | Buffer, headers: [string, string][] = [bearer, json]): RawRequest => ({ method: "POST", target: "/v1/custom/emails", headers, body });
const postNotification = (body: string | Buffer, headers: [string, string][] = [...keyPair, json]): RawRequest => ({
  method: "POST",
  target: "/v1/notifications",
  headers,
  body,
});
const with_ = (base: object, extra: object) => JSON.stringify({ ...base, ...extra });

const ok = { status: 200, code: null };
const invalid = { status: 400, code: "validation_failed" };
const malformed = { status: 400, code: "malformed_json" };
const unsupported = { status: 415, code: "unsupported_media_type" };
const tooLarge = { status: 413, code: "payload_too_large" };
const notFound = { status: 404, code: "not_found" };
const unauthorized = { status: 401, code: "unauthorized" };

const nested = (depth: number, open: string, close: string, inner = "1") => open.repeat(depth) + inner + close.repeat(depth);
const noEcho = (needle: string) => (res: RawResponse) =>
  JSON.stringify(res.headers).includes(needle) || res.body.includes(needle) ? `the answer echoes ${JSON.stringify(needle)}` : undefined;

export const corpus: BadInput[] = [
  // Malformed and truncated JSON
  { category: "malformed JSON", name: "lone brace", ...putProvider("{"), expect: malformed },
  { category: "malformed JSON", name: "truncated object", ...putProvider('{"name": "Backup'), expect: malformed },
  { category: "malformed JSON", name: "truncated after a comma", ...postNotification('{"type":"SIMPLE",'), expect: malformed },
  { category: "malformed JSON", name: "single quotes", ...putProvider("{'name': 'x'}"), expect: malformed },
  { category: "malformed JSON", name: "trailing comma", ...putProvider('{"name": "x",}'), expect: malformed },
  { category: "malformed JSON", name: "unquoted key", ...putProvider("{name: 1}"), expect: malformed },
  { category: "malformed JSON", name: "plain text", ...postEmails("hello"), expect: malformed },
  { category: "malformed JSON", name: "garbage after the value", ...putProvider('{"name":"x"} trailing'), expect: malformed },
  { category: "malformed JSON", name: "two values", ...putProvider('{"name":"x"}{"name":"y"}'), expect: malformed },
  { category: "malformed JSON", name: "a comment", ...putProvider('{"name":"x" /* hi */}'), expect: malformed },
  { category: "malformed JSON", name: "NaN literal", ...postNotification('{"type":"SIMPLE","title":"t","content":"c","broadcast":true,"level":NaN}'), expect: malformed },
  {
    category: "malformed JSON",
    name: "Infinity literal",
    ...postNotification('{"type":"SIMPLE","title":"t","content":"c","broadcast":true,"level":Infinity}'),
    expect: malformed,
  },
  { category: "malformed JSON", name: "unterminated string", ...postEmails('{"type":"SENDGRID","email_from":"a@b.example}'), expect: malformed },
  { category: "malformed JSON", name: "top-level null (well-formed, not an object)", ...putProvider("null"), expect: invalid },
  { category: "malformed JSON", name: "top-level number", ...postNotification("42"), expect: invalid },
  { category: "malformed JSON", name: "top-level array", ...putProvider("[]"), expect: invalid },
  // Content type
  { category: "content type", name: "text/plain", ...putProvider('{"name":"x"}', [bearer, ["content-type", "text/plain"]]), expect: unsupported },
  { category: "content type", name: "missing, with a body", ...postNotification(JSON.stringify(notification), keyPair), expect: unsupported },
  {
    category: "content type",
    name: "form-urlencoded",
    ...postEmails("type=SENDGRID", [bearer, ["content-type", "application/x-www-form-urlencoded"]]),
    expect: unsupported,
  },
  { category: "content type", name: "multipart", ...postEmails("--x--", [bearer, ["content-type", "multipart/form-data; boundary=x"]]), expect: unsupported },
  { category: "content type", name: "XML", ...postNotification("<n/>", [...keyPair, ["content-type", "application/xml"]]), expect: unsupported },
  {
    category: "content type",
    name: "JSON in latin1",
    ...putProvider('{"name":"x"}', [bearer, ["content-type", "application/json; charset=latin1"]]),
    expect: unsupported,
  },
  {
    category: "content type",
    name: "gzip-encoded body that is not gzip (unreadable, so malformed)",
    ...putProvider('{"name":"x"}', [bearer, json, ["content-encoding", "gzip"]]),
    expect: malformed,
  },
  // Size
  { category: "size", name: "body of 100 kB + 1 byte", ...putProvider(JSON.stringify({ name: "x".repeat(102_400 - 11 + 1) })), expect: tooLarge },
  { category: "size", name: "body of 1 MB", ...postNotification(with_(notification, { content: "x".repeat(1_048_576) })), expect: tooLarge },
  { category: "size", name: "body just under 100 kB, field too long", ...putProvider(JSON.stringify({ name: "x".repeat(90_000) })), expect: invalid },
  // Deep nesting
  { category: "nesting", name: "array nested 20,000 deep", ...putProvider(`{"countries":${nested(20_000, "[", "]")}}`), expect: invalid },
  { category: "nesting", name: "object nested 10,000 deep", ...putProvider(`{"name":${nested(10_000, '{"a":', "}")}}`), expect: invalid },
  {
    category: "nesting",
    name: "nested inside a choice item",
    ...postNotification(with_({ ...notification, type: "RADIO" }, { radio: [{ text: nested(5_000, "[", "]") }, { text: "b" }] })),
    expect: invalid,
  },
  // Prototype keys
  { category: "prototype keys", name: "__proto__ in the body", ...putProvider('{"__proto__":{"polluted":true}}'), expect: invalid },
  { category: "prototype keys", name: "constructor.prototype in the body", ...putProvider('{"constructor":{"prototype":{"polluted":true}}}'), expect: invalid },
  { category: "prototype keys", name: "__proto__ beside a valid field", ...putProvider('{"name":"Backup gateway","__proto__":{"is_default":true}}'), expect: invalid },
  {
    category: "prototype keys",
    name: "__proto__ inside e-mail auth",
    ...postEmails('{"type":"SENDGRID","email_from":"a@acme-shop.example","email_admin":"b@acme-shop.example","auth":{"api_key":"k","__proto__":{"polluted":true}}}'),
    expect: invalid,
  },
  { category: "prototype keys", name: "__proto__ as a query parameter", ...get("/v1/webhooks?__proto__=x"), expect: invalid },
  { category: "prototype keys", name: "constructor as a query parameter", ...get("/v1/reports/encryption?constructor=x"), expect: invalid },
  // Duplicate parameters and arrays where scalars are expected
  { category: "duplicates and arrays", name: "limit twice", ...get("/v1/webhooks?limit=10&limit=20"), expect: invalid },
  { category: "duplicates and arrays", name: "country twice", ...get("/v1/reports/encryption?country=ES&country=FR"), expect: invalid },
  { category: "duplicates and arrays", name: "bracketed array parameter", ...get("/v1/webhooks?limit[]=10"), expect: invalid },
  { category: "duplicates and arrays", name: "array for a string field", ...putProvider('{"name":["Backup"]}'), expect: invalid },
  { category: "duplicates and arrays", name: "array for a boolean field", ...putProvider('{"is_active":[true]}'), expect: invalid },
  { category: "duplicates and arrays", name: "object for an enum field", ...putProvider('{"sort":{"value":"UP"}}'), expect: invalid },
  { category: "duplicates and arrays", name: "duplicate countries (uniqueItems)", ...putProvider('{"countries":["ES","ES"]}'), expect: invalid },
  { category: "duplicates and arrays", name: "duplicate key in a body (last one wins, and is valid)", ...putProvider('{"name":1,"name":"Backup gateway"}'), expect: ok },
  // Numbers
  { category: "numbers", name: "number as string in the body", ...postNotification(with_(notification, { level: "5" })), expect: invalid },
  { category: "numbers", name: "boolean as string in the body", ...putProvider('{"is_active":"true"}'), expect: invalid },
  { category: "numbers", name: "limit not a number", ...get("/v1/webhooks?limit=ten"), expect: invalid },
  { category: "numbers", name: "limit NaN", ...get("/v1/webhooks?limit=NaN"), expect: invalid },
  { category: "numbers", name: "page Infinity", ...get("/v1/webhooks?page=Infinity"), expect: invalid },
  { category: "numbers", name: "page negative", ...get("/v1/webhooks?page=-1"), expect: invalid },
  { category: "numbers", name: "page zero", ...get("/v1/webhooks?page=0"), expect: invalid },
  { category: "numbers", name: "page fractional", ...get("/v1/webhooks?page=1.5"), expect: invalid },
  { category: "numbers", name: "limit above 100", ...get("/v1/webhooks?limit=101"), expect: invalid },
  { category: "numbers", name: "page past the end (the document's maximum)", ...get("/v1/webhooks?page=1000000"), expect: ok },
  { category: "numbers", name: "page past the document's maximum", ...get("/v1/webhooks?page=99999999999999999999"), expect: invalid },
  { category: "numbers", name: "limit in hex", ...get("/v1/webhooks?limit=0x10"), expect: invalid },
  { category: "numbers", name: "limit with an exponent", ...get("/v1/webhooks?limit=1e1"), expect: invalid },
  { category: "numbers", name: "limit with a leading space", ...get("/v1/webhooks?limit=%2010"), expect: invalid },
  { category: "numbers", name: "start_date in milliseconds", ...get("/v1/reports/encryption?start_date=1767225600000"), expect: invalid },
  { category: "numbers", name: "start_date after end_date", ...get("/v1/reports/encryption?start_date=1767225600&end_date=1767225599"), expect: invalid },
  { category: "numbers", name: "level 1e400 (Infinity once parsed)", ...postNotification(with_(notification, {}).replace("}", ',"level":1e400}')), expect: invalid },
  { category: "numbers", name: "level negative", ...postNotification(with_(notification, { level: -5 })), expect: invalid },
  { category: "numbers", name: "level fractional", ...postNotification(with_(notification, { level: 5.5 })), expect: invalid },
  { category: "numbers", name: "group id 0", ...postNotification(with_({ ...notification, broadcast: undefined }, { groups: [0] })), expect: invalid },
  { category: "numbers", name: "send_at far in the past", ...postNotification(with_(notification, { send_at: 1 })), expect: invalid },
  // Strings
  { category: "strings", name: "id of 65 characters", ...get(`/v1/widgets/${"w".repeat(65)}`), expect: invalid },
  { category: "strings", name: "id of 8,000 characters", ...get(`/v1/webhooks/${"w".repeat(8_000)}`), expect: invalid },
  { category: "strings", name: "name of 101 characters", ...putProvider(JSON.stringify({ name: "x".repeat(101) })), expect: invalid },
  {
    category: "strings",
    name: "title of 51 characters (emoji count as characters)",
    ...postNotification(with_(notification, { title: "😀".repeat(51) })),
    expect: invalid,
  },
  {
    category: "strings",
    name: "invalid UTF-8 bytes in a body string (decoded as U+FFFD)",
    ...putProvider(Buffer.concat([Buffer.from('{"name":"Backup '), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])),
    expect: ok,
  },
  { category: "strings", name: "invalid UTF-8 in a path id", ...get("/v1/widgets/%FF%FE"), expect: invalid },
  { category: "strings", name: "overlong UTF-8 encoding of / in a path id", ...get("/v1/widgets/%C0%AF"), expect: invalid },
  { category: "strings", name: "lone percent sign in a path id", ...get("/v1/widgets/%"), expect: invalid },
  { category: "strings", name: "NUL in a path id", ...get("/v1/widgets/wgt%00"), expect: invalid },
  { category: "strings", name: "NUL in a body string (a valid string)", ...putProvider(JSON.stringify({ name: "Backup\u0000gateway" })), expect: ok },
  { category: "strings", name: "control characters in an e-mail", ...postEmails(with_(transport, { email_from: "no\u0007reply@acme-shop.example" })), expect: invalid },
  { category: "strings", name: "newline in a query filter", ...get("/v1/reports/encryption?country=E%0AS"), expect: invalid },
  { category: "strings", name: "lowercase country code", ...putProvider('{"countries":["es"]}'), expect: invalid },
  // Paths and ids
  { category: "paths", name: "raw .. segment", ...get("/v1/widgets/../webhooks"), expect: notFound },
  { category: "paths", name: "encoded ../../etc/passwd as an id", ...get("/v1/widgets/..%2F..%2Fetc%2Fpasswd"), expect: invalid },
  { category: "paths", name: "encoded .. as an id", ...get("/v1/widgets/%2e%2e"), expect: invalid },
  { category: "paths", name: "encoded slash at the end of an id", ...get("/v1/widgets/wgt_5a3c8e1f7b92%2F"), expect: invalid },
  { category: "paths", name: "percent-encoded characters of a real id", ...get("/v1/widgets/%77gt%5F5a3c8e1f7b92"), expect: ok },
  { category: "paths", name: "matrix parameter on an id", ...get("/v1/widgets/wgt_5a3c8e1f7b92;jsessionid=x"), expect: invalid },
  { category: "paths", name: "double slash", ...get("/v1//widgets/wgt_5a3c8e1f7b92"), expect: notFound },
  { category: "paths", name: "base path in upper case", ...get("/V1/widgets/wgt_5a3c8e1f7b92"), expect: notFound },
  { category: "paths", name: "unknown route", ...get("/v1/admin"), expect: notFound },
  {
    category: "paths",
    name: "method not served",
    method: "DELETE",
    target: widget,
    headers: [bearer],
    expect: { status: 405, code: "method_not_allowed" },
    check: (res) => (res.headers.allow === "GET" ? undefined : `Allow is ${res.headers.allow}`),
  },
  // Headers
  {
    category: "headers",
    name: "request id carrying an encoded CRLF and a cookie",
    ...get(widget, [bearer, ["x-request-id", "abc%0d%0aSet-Cookie:%20x=1"]]),
    expect: ok,
    check: (res) => (res.headers["set-cookie"] ? "a Set-Cookie came back" : noEcho("Set-Cookie")(res)),
  },
  { category: "headers", name: "request id with HTML", ...get(widget, [bearer, ["x-request-id", "<script>alert(1)</script>"]]), expect: ok, check: noEcho("<script>") },
  {
    category: "headers",
    name: "request id of 10,000 characters",
    ...get(widget, [bearer, ["x-request-id", "r".repeat(10_000)]]),
    expect: ok,
    check: noEcho("r".repeat(200)),
  },
  {
    category: "headers",
    name: "bare LF inside a header value (Node's parser refuses)",
    ...get(widget, [bearer, ["x-request-id", "a\nSet-Cookie: x=1"]]),
    expect: invalid,
    check: (res) => (res.headers["set-cookie"] ? "a Set-Cookie came back" : undefined),
  },
  { category: "headers", name: "Bearer without a token", ...get(widget, [["authorization", "Bearer"]]), expect: unauthorized },
  {
    category: "headers",
    name: "Bearer with a 4 kB token",
    ...get(widget, [["authorization", `Bearer ${"k".repeat(4096)}`]]),
    expect: unauthorized,
    check: noEcho("k".repeat(100)),
  },
  { category: "headers", name: "Bearer with a non-ASCII token", ...get(widget, [["authorization", "Bearer ak_live_\u00e9"]]), expect: unauthorized },
  {
    category: "headers",
    name: "X-Api-Key sent twice (a proxy and the server could pick different copies)",
    ...postNotification(JSON.stringify(notification), [...keyPair, ["x-api-key", key], json]),
    expect: invalid,
  },
  // Empty bodies
  { category: "empty bodies", name: "PUT provider, empty JSON body (a valid no-op)", ...putProvider(""), expect: ok },
  { category: "empty bodies", name: "PUT provider, {} (a valid no-op)", ...putProvider("{}"), expect: ok },
  { category: "empty bodies", name: "POST e-mails, empty body", ...postEmails(""), expect: invalid },
  { category: "empty bodies", name: "POST notification, {}", ...postNotification("{}"), expect: invalid },
  { category: "empty bodies", name: "POST notification, whitespace only (not a JSON text)", ...postNotification("   "), expect: malformed },
];
