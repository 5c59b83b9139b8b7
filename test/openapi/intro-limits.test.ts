// The introduction states the limits once, with numbers; they must be the reference server's
// defaults and the document's own bounds, so a change to either fails here instead of
// leaving the introduction wrong. It also names the three base URLs the servers list holds.
import { describe, expect, it } from "vitest";
import { defaultFailedAuthLimit } from "../../server/middleware/failed-auth-limit.js";
import { defaultRateLimit } from "../../server/middleware/rate-limit.js";
import { bodyLimitKb } from "../../server/problems.js";
import { deref, doc, operation, parameter } from "./document.js";

const intro: string = doc.info.description;

/** The cell after `label` in the introduction's Limits table. */
function limitRow(label: string): string {
  const section = intro.slice(intro.indexOf("## Limits"));
  const row = section.split("\n").find((line) => line.startsWith(`| ${label} |`));
  if (!row) throw new Error(`no "${label}" row in the introduction's Limits table`);
  return row.split("|")[2]!.trim();
}

const numbers = (text: string) => (text.match(/\d+/g) ?? []).map(Number);

describe("the introduction's limits", () => {
  it("states the server's default rate limit and window", () => {
    const [limit, seconds] = numbers(limitRow("rate limit"));
    expect(limit).toBe(defaultRateLimit.limit);
    expect(seconds! * 1000).toBe(defaultRateLimit.windowMs);
    // The policy the sentence quotes is the one the server sends.
    expect(intro).toContain(`"default";q=${defaultRateLimit.limit};w=${defaultRateLimit.windowMs / 1000}`);
  });

  it("states the server's default limit on failed authentication per address", () => {
    const [limit, seconds] = numbers(limitRow("failed authentication"));
    expect(limit).toBe(defaultFailedAuthLimit.limit);
    expect(seconds! * 1000).toBe(defaultFailedAuthLimit.windowMs);
  });

  it("states the server's body limit", () => {
    expect(numbers(limitRow("request body"))[0]).toBe(bodyLimitKb);
  });

  it("states the page-size bounds the list operations declare", () => {
    const limit = deref(parameter(operation("GET", "/webhooks"), "limit").schema);
    const page = deref(parameter(operation("GET", "/webhooks"), "page").schema);
    expect(numbers(limitRow("page size"))).toEqual([limit.minimum, limit.maximum, limit.default, page.minimum, page.default]);
  });

  it("quotes the same numbers in the RateLimit-Policy header example", () => {
    const policy = deref(operation("GET", "/webhooks").responses["200"].headers["RateLimit-Policy"]);
    expect(policy.example).toBe(`"default";q=${defaultRateLimit.limit};w=${defaultRateLimit.windowMs / 1000}`);
  });
});

describe("getting started", () => {
  it("names every base URL of the servers list, production first", () => {
    const section = intro.slice(intro.indexOf("## Getting started"), intro.indexOf("## Envelope"));
    expect(doc.servers[0].url).toMatch(/^https:/);
    for (const { url } of doc.servers) expect(section).toContain(url);
    expect(section).toMatch(/export BASE_URL=http:\/\/127\.0\.0\.1:4010\/v1/);
  });

  it("shows the first call's answer exactly as the operation's example", () => {
    const section = intro.slice(intro.indexOf("**First call**"));
    expect(section).toContain('curl -sS "$BASE_URL/widgets/wgt_5a3c8e1f7b92" -H "Authorization: Bearer $API_KEY"');
    const answer = /```json\n([\s\S]*?)```/.exec(section)![1]!;
    const example = deref(operation("GET", "/widgets/{id}").responses["200"].content["application/json"].examples.WidgetRead).value;
    expect(JSON.parse(answer)).toEqual(example);
  });
});
