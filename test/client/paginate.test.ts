// paginate() through the client against the reference server: every record of each paged
// list exactly once and in the server's order, across page boundaries, on the demo data and
// on a seed with 250 webhooks (and longer activity and history lists), asking for each page
// once and never for one past the last. On scripted pages: nextPage(), what each page asks
// for, and the PageError of a refused page.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiClient, nextPage, paginate, PageError, type ApiClient, type PagingClient, type paths } from "../../client/index.js";
import { startServer, type RunningServer } from "../support/server.js";
import { appA } from "../support/demo.js";
import { exampleId } from "../support/document.js";
import { createLogger } from "../../server/middleware/logging.js";

const user = exampleId("findUserActivity");
const webhook = exampleId("findWebhookHistory");
const scratch = mkdtempSync(join(tmpdir(), "paginate-"));

const demoSeed = () => JSON.parse(readFileSync(new URL("../../server/seed/demo.json", import.meta.url), "utf8"));
const demoWebhooks: number = demoSeed().applications.find((a: { id: string }) => a.id === appA.applicationId).webhooks.length;

/** The demo seed with `webhooks` webhooks, and 37 deliveries and 23 activities of the example webhook and user, for application A. */
function largeSeed(webhooks: number): string {
  const seed = demoSeed();
  const app = seed.applications.find((a: { id: string }) => a.id === appA.applicationId);
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  const [hook] = app.webhooks;
  for (let i = app.webhooks.length; i < webhooks; i++) app.webhooks.push({ ...hook, id: `whk_gen${String(i).padStart(5, "0")}`, created_at: at(i) });
  const [delivery] = app.webhook_history;
  for (let i = 0; i < 37; i++) app.webhook_history.push({ ...delivery, id: `whh_gen${String(i).padStart(5, "0")}`, webhook_id: webhook, created_at: at(i) });
  const [activity] = app.activities.filter((a: { account_id: string }) => a.account_id === user);
  for (let i = 0; i < 23; i++) app.activities.push({ ...activity, id: `act_gen${String(i).padStart(5, "0")}`, created_at: at(i) });
  const file = join(scratch, "seed.json");
  writeFileSync(file, JSON.stringify(seed));
  return file;
}

/** Every record of a list in one request (limit 100 is the maximum: the lists here fit). */
async function onePage(api: ApiClient<paths>, path: "/webhooks" | "/webhooks/{id}/history" | "/users/{id}/activity", page = 1) {
  const id = path === "/users/{id}/activity" ? user : webhook;
  const { data } = await (api.GET as (p: string, i: object) => Promise<{ data?: { result: { id: string }[]; meta: { total_count: number } } }>)(path, {
    params: { path: { id }, query: { limit: 100, page } },
  });
  return data!;
}

async function ids<T extends { id: string }>(records: AsyncIterable<T>): Promise<string[]> {
  const seen: string[] = [];
  for await (const record of records) seen.push(record.id);
  return seen;
}

// Each seed with the webhooks it holds and the least history and activity it holds: none of the
// lists is empty, so walking one proves something, and the large seed's cross page boundaries.
describe.each([
  { seed: "the demo data", webhooks: undefined, expected: { webhooks: demoWebhooks, history: 1, activity: 1 } },
  { seed: "a seed with 250 webhooks", webhooks: 250, expected: { webhooks: 250, history: 31, activity: 21 } },
])("paginate() on $seed", ({ webhooks, expected }) => {
  let server: RunningServer;
  let api: ApiClient<paths>;

  beforeAll(async () => {
    server = await startServer({ logger: createLogger("silent"), rateLimit: false, ...(webhooks ? { seedFile: largeSeed(webhooks) } : {}) });
    api = createApiClient({ baseUrl: server.url, apiKey: appA.apiKey, apiSecret: appA.apiSecret });
  });
  afterAll(() => server?.close());

  it.each([10, 17, 100])("GET /webhooks at limit %i: every webhook once, in the server's order", async (limit) => {
    const walked = await ids(paginate(api, "/webhooks", { query: { limit } }));
    const total = (await onePage(api, "/webhooks")).meta.total_count;
    expect(walked).toHaveLength(total);
    expect(new Set(walked).size).toBe(total);
    expect(total).toBe(expected.webhooks);
    const all = [];
    for (let page = 1; all.length < total; page++) all.push(...(await onePage(api, "/webhooks", page)).result.map((w) => w.id));
    expect(walked).toEqual(all);
  });

  it.each([10, 17, 100])("GET /webhooks at limit %i asks for each page once and none past the last", async (limit) => {
    const asked: number[] = [];
    const counting = createApiClient({
      baseUrl: server.url,
      apiKey: appA.apiKey,
      apiSecret: appA.apiSecret,
      fetch: (request) => (asked.push(Number(new URL(request.url).searchParams.get("page"))), fetch(request)),
    });
    await ids(paginate(counting, "/webhooks", { query: { limit } }));
    const { total_count: total } = (await onePage(api, "/webhooks")).meta;
    expect(total).toBeGreaterThan(0);
    expect(asked).toEqual(Array.from({ length: Math.ceil(total / limit) }, (_, i) => i + 1));
  });

  it("GET /webhooks/{id}/history and GET /users/{id}/activity at limit 10: every record once", async () => {
    const history = await ids(paginate(api, "/webhooks/{id}/history", { path: { id: webhook }, query: { limit: 10 } }));
    expect(history).toEqual((await onePage(api, "/webhooks/{id}/history")).result.map((r) => r.id));
    const activity = await ids(paginate(api, "/users/{id}/activity", { path: { id: user }, query: { limit: 10 } }));
    expect(activity).toEqual((await onePage(api, "/users/{id}/activity")).result.map((r) => r.id));
    expect(history.length).toBeGreaterThanOrEqual(expected.history);
    expect(activity.length).toBeGreaterThanOrEqual(expected.activity);
  });

  it("starts at query.page, and stops at once on an empty list", async () => {
    const total = (await onePage(api, "/webhooks")).meta.total_count;
    expect(await ids(paginate(api, "/webhooks", { query: { limit: 10, page: 2 } }))).toHaveLength(Math.max(0, total - 10));
  });

  it("throws a PageError carrying the problem when a page is refused", async () => {
    const walk = ids(paginate(api, "/users/{id}/activity", { path: { id: "usr_000000000000" } }));
    await expect(walk).rejects.toBeInstanceOf(PageError);
    await expect(walk).rejects.toMatchObject({ status: 404, page: 1, problem: { code: "not_found" } });
  });
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the walk's rules, on scripted pages", () => {
  type Answer = { data?: { result: unknown[]; meta: { current_page: number; page_count: number } }; error?: unknown; response: Response; requestId?: string };
  /** A client whose GET answers from the script in turn and records what it was asked. */
  function scriptedClient(...answers: Answer[]) {
    const asked: { path: string; init: { params: unknown; signal?: AbortSignal } }[] = [];
    const client = {
      GET: async (path: string, init: { params: unknown; signal?: AbortSignal }) => (asked.push({ path, init }), answers[asked.length - 1]!),
    };
    return { client: client as unknown as PagingClient, asked };
  }
  const page = (current_page: number, page_count: number, result: unknown[]): Answer => ({
    data: { result, meta: { current_page, page_count } },
    response: Response.json({}),
  });

  it("nextPage: the page after, none at or past the last, none after an empty page", () => {
    expect(nextPage({ meta: { current_page: 1, page_count: 3 }, result: [1] })).toBe(2);
    expect(nextPage({ meta: { current_page: 3, page_count: 3 }, result: [1] })).toBeUndefined();
    expect(nextPage({ meta: { current_page: 4, page_count: 3 }, result: [] })).toBeUndefined();
    expect(nextPage({ meta: { current_page: 1, page_count: 3 }, result: [] })).toBeUndefined();
    expect(nextPage({ meta: { current_page: 1, page_count: 0 }, result: [] })).toBeUndefined();
  });

  it("asks for limit 100 from page 1 unless told otherwise, with the path's parameters and the caller's signal", async () => {
    const { client, asked } = scriptedClient(page(1, 2, ["a"]), page(2, 2, ["b"]));
    const { signal } = new AbortController();
    const walked = [];
    for await (const record of paginate(client, "/webhooks/{id}/history", { path: { id: webhook } }, { signal })) walked.push(record);
    expect(walked).toEqual(["a", "b"]);
    expect(asked).toEqual([
      { path: "/webhooks/{id}/history", init: { signal, params: { path: { id: webhook }, query: { limit: 100, page: 1 } } } },
      { path: "/webhooks/{id}/history", init: { signal, params: { path: { id: webhook }, query: { limit: 100, page: 2 } } } },
    ]);
  });

  it("a refused page of another client: a PageError with the id the server echoed, named in its message", async () => {
    const problem = { code: "internal_error", detail: "try later" };
    const echoed = new Response(null, { status: 500, headers: { "x-request-id": "srv-1" } });
    const { client } = scriptedClient(page(1, 2, ["a"]), { error: problem, response: echoed });
    const walked: unknown[] = [];
    const error = await (async () => {
      for await (const record of paginate(client, "/webhooks")) walked.push(record);
    })().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(walked).toEqual(["a"]);
    expect(error).toBeInstanceOf(PageError);
    const { name, message, status, page: failed, requestId } = error as PageError;
    expect({ name, message, status, page: failed, requestId, problem: (error as PageError).problem }).toEqual({
      name: "PageError",
      message: "page 2 answered 500 internal_error: try later (X-Request-Id srv-1)",
      status: 500,
      page: 2,
      requestId: "srv-1",
      problem,
    });
  });

  it("a page without data and without any request id: the message says only the page and status", async () => {
    const { client } = scriptedClient({ response: new Response(null, { status: 502 }) });
    const walk = (async () => {
      for await (const _ of paginate(client, "/webhooks")) void _;
    })();
    await expect(walk).rejects.toMatchObject({ message: "page 1 answered 502", status: 502, problem: undefined, requestId: undefined });
  });
});
