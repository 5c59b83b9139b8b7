// Paging shared by 4.2, 4.3, 4.8 and 4.9: `meta` as the source says (empty list, page past
// the end) and newest-first order, checked on generated records of every list.
import { describe, expect, it } from "vitest";
import type { Seed } from "../../../server/seed/types.js";
import { callerA, offending, problemOf, seedWith, setup } from "./harness.js";

const userId = "usr_7d2e9a4c1b6f";
const webhookId = "whk_3a7f1c9e5b2d";

/** 23 records per list, created one minute apart, with two sharing a timestamp. */
function seedOf23(): Seed {
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, i === 22 ? 21 : i)).toISOString();
  return seedWith((seed) => {
    const app = seed.applications[0]!;
    const activity = app.activities[0]!;
    const report = app.encryption_reports[0]!;
    const webhook = app.webhooks[0]!;
    const record = app.webhook_history[0]!;
    const ids = Array.from({ length: 23 }, (_, i) => `${String(i).padStart(2, "0")}`);
    app.activities = ids.map((n, i) => ({ ...activity, id: `act_${n}`, created_at: at(i) }));
    app.encryption_reports = ids.map((n, i) => ({ ...report, id: `rep_${n}`, created_at: at(i) }));
    app.webhooks = ids.map((n, i) => ({ ...webhook, id: n === "00" ? webhookId : `whk_${n}`, created_at: at(i) }));
    app.webhook_history = ids.map((n, i) => ({ ...record, id: `whh_${n}`, webhook_id: webhookId, created_at: at(i) }));
  });
}

const lists = [
  ["findUserActivity", { path: { id: userId } }],
  ["findEncryptionReports", {}],
  ["findWebhookHistory", { path: { id: webhookId } }],
  ["findWebhooks", {}],
] as const;

describe.each(lists)("%s paging", (op, input) => {
  const { call } = setup(seedOf23());
  const page = (query: { limit?: number; page?: number }) =>
    call(op, { ...input, query } as never) as Promise<{ result: { id: string; created_at: string }[]; meta: unknown }>;

  it("defaults to limit 10, page 1", async () => {
    const body = await page({});
    expect(body.result).toHaveLength(10);
    expect(body.meta).toEqual({ total_count: 23, page_count: 3, current_count: 10, current_page: 1 });
  });

  it("answers the last, partial page", async () => {
    const body = await page({ page: 3 });
    expect(body.result).toHaveLength(3);
    expect(body.meta).toEqual({ total_count: 23, page_count: 3, current_count: 3, current_page: 3 });
  });

  it("answers a page past the end with [] and the real totals", async () => {
    const body = await page({ page: 9 });
    expect(body.result).toEqual([]);
    expect(body.meta).toEqual({ total_count: 23, page_count: 3, current_count: 0, current_page: 9 });
  });

  it("honours limit up to 100", async () => {
    const body = await page({ limit: 100 });
    expect(body.meta).toEqual({ total_count: 23, page_count: 1, current_count: 23, current_page: 1 });
  });

  it("orders newest first, ties by id, and pages without overlap", async () => {
    const all = [...(await page({ page: 1 })).result, ...(await page({ page: 2 })).result, ...(await page({ page: 3 })).result];
    expect(new Set(all.map((r) => r.id)).size).toBe(23);
    const sorted = [...all].sort((a, b) => (a.created_at === b.created_at ? a.id.localeCompare(b.id) : b.created_at.localeCompare(a.created_at)));
    expect(all).toEqual(sorted);
    // Records 21 and 22 share a timestamp: the smaller id comes first.
    expect(all.slice(0, 2).map((r) => r.id.slice(-2))).toEqual(["21", "22"]);
  });
});

describe("empty lists", () => {
  const empty = seedWith((seed) => {
    const app = seed.applications[0]!;
    app.users.push({ id: "usr_0a0a0a0a0a0a", email: "new.user@acme-shop.example", groups: [] });
    app.encryption_reports = [];
    app.webhook_history = [];
    app.webhooks = app.webhooks.slice(0, 1);
  });
  const zero = { total_count: 0, page_count: 0, current_count: 0, current_page: 1 };

  it("a known user without activity has an empty list, page 1 (not 404)", async () => {
    const { call } = setup(empty);
    const body = await call("findUserActivity", { path: { id: "usr_0a0a0a0a0a0a" }, query: { limit: 10, page: 1 } });
    expect(body).toEqual({ type: "api.application.user.activity.find", result: [], meta: zero });
  });

  it("an empty list reports page 1 even when a later page is asked", async () => {
    const { call } = setup(empty);
    expect((await call("findEncryptionReports", { query: { limit: 10, page: 4 } })).meta).toEqual(zero);
    expect((await call("findWebhookHistory", { path: { id: "whk_8d1f6b3a9c4e" }, query: { limit: 10, page: 1 } })).meta).toEqual(zero);
  });

  it("an unknown user is 404, not an empty list", async () => {
    const { store } = setup(empty);
    await expect(store.userActivity(callerA.applicationId, "usr_unknown", { limit: 10, page: 1 })).rejects.toThrow(/not found/);
  });
});

describe("paging values the schema's integer type lets through", () => {
  it("refuses an infinite page with 400 naming it, on every list", async () => {
    const { call } = setup();
    for (const [op, input] of lists) {
      const problem = await problemOf(() => call(op, { ...input, query: { limit: 10, page: Infinity } } as never), "validation_failed");
      expect(offending(problem)).toEqual(["page"]);
    }
  });

  it("answers a huge but finite page as a page past the end", async () => {
    const { call } = setup();
    const body = await call("findWebhooks", { query: { limit: 10, page: 1e20 } });
    expect(body.meta).toEqual({ total_count: 2, page_count: 1, current_count: 0, current_page: 1e20 });
  });
});
