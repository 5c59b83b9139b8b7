// A frontend unit test without any server: the package's MSW handlers answer the documented
// examples, a test picks another documented answer or overrides one handler.
import { createApiClient } from "@authsvc/app-api-contract";
import { WidgetRead, ReadWebhookNotFoundProblem, examples } from "@authsvc/app-api-contract/examples";
import { answer, createHandlers, override } from "@authsvc/app-api-mock/msw";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";

const baseUrl = "https://api.example.test/v1";
const server = setupServer(...createHandlers({ baseUrl }));
const api = createApiClient({ baseUrl, apiKey: "ak_test" });

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

test("the documented widget", async () => {
  const { data } = await api.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } });
  expect(data).toEqual(WidgetRead);
});

test("another documented answer for this test", async () => {
  server.use(answer("readWebhook", baseUrl, { status: 404 }));
  const { error, response } = await api.GET("/webhooks/{id}", { params: { path: { id: "whk_3a7f1c9e5b2d" } } });
  expect(response.status).toBe(404);
  expect(error).toEqual(ReadWebhookNotFoundProblem);
});

test("one handler overridden with typed data", async () => {
  server.use(
    override("findWebhooks", baseUrl, () =>
      HttpResponse.json({ ...examples.WebhookFind, result: [], meta: { ...examples.WebhookFind.meta, total_count: 0, page_count: 0, current_count: 0 } }),
    ),
  );
  const { data } = await api.GET("/webhooks");
  expect(data?.result).toEqual([]);
});
