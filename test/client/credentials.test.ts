// Each operation of the generated table, called through the client, goes out with its own
// method, URL under /v1, and exactly its own credentials: Bearer on all but one, X-Api-Key +
// X-Api-Secret (and no Authorization) on POST /notifications. The operations come from the generated
// table, so a new operation is covered without touching this file.
import { describe, expect, test } from "vitest";
import { createApiClient } from "../../client/index.js";
import { operations } from "../../generated/operations.js";
import { appA } from "../support/demo.js";
import { observingFetch, requestExample } from "./observe.js";

const baseUrl = "http://api.test/v1";
const { apiKey, apiSecret } = appA;
const id = "rec_5a3c8e1f7b92";

/** Calls one operation by its table row; the per-operation types are proven in test/types. */
type LooseCall = (path: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
function call(client: object, op: (typeof operations)[keyof typeof operations], init: object = {}) {
  const method = (client as Record<string, LooseCall>)[op.method.toUpperCase()]!;
  const body = op.hasBody ? { body: requestExample(op.method, op.path) } : {};
  return method(op.path, { params: { path: op.path.includes("{id}") ? { id } : undefined }, ...body, ...init });
}

describe.each(Object.entries(operations))("%s", (_operationId, op) => {
  test(`sends ${op.method.toUpperCase()} ${op.path} under /v1 with only its own credentials`, async () => {
    const { fetch, requests } = observingFetch(() => Response.json({ type: op.responseType }));
    const client = createApiClient({ baseUrl, apiKey, apiSecret, fetch });

    const { data, response } = await call(client, op);

    expect(requests).toHaveLength(1);
    const [request] = requests as [Request];
    expect(request.method).toBe(op.method.toUpperCase());
    expect(request.url).toBe(`${baseUrl}${op.path.replace("{id}", id)}`);
    // The operation's first scheme names the credentials it sends; any other scheme has no row and fails.
    const sent = {
      authorization: request.headers.get("authorization"),
      "x-api-key": request.headers.get("x-api-key"),
      "x-api-secret": request.headers.get("x-api-secret"),
    };
    const byScheme: Record<string, typeof sent> = {
      apiKey: { authorization: null, "x-api-key": apiKey, "x-api-secret": apiSecret },
      bearerAuth: { authorization: `Bearer ${apiKey}`, "x-api-key": null, "x-api-secret": null },
    };
    expect(sent).toEqual(byScheme[op.security[0]]);
    const body = request.body === null ? null : await request.json();
    expect({ contentType: request.headers.get("content-type"), body }).toEqual(
      op.hasBody ? { contentType: "application/json", body: requestExample(op.method, op.path) } : { contentType: null, body: null },
    );
    expect(response.ok).toBe(true);
    expect(data).toEqual({ type: op.responseType });
  });

  test("per-call headers cannot add the other scheme's credentials", async () => {
    const { fetch, requests } = observingFetch();
    const client = createApiClient({ baseUrl, apiKey, apiSecret, fetch });
    const other = op.security[0] === "apiKey" ? { Authorization: "Bearer stray" } : { "X-Api-Key": "stray", "X-Api-Secret": "stray" };

    await call(client, op, { headers: other });

    const sent = [...requests[0]!.headers.keys()].filter((name) => ["authorization", "x-api-key", "x-api-secret"].includes(name));
    expect(sent.sort()).toEqual(op.security[0] === "apiKey" ? ["x-api-key", "x-api-secret"] : ["authorization"]);
  });
});

describe("paging and extra headers", () => {
  test("query parameters are serialised onto the URL, extra headers pass through", async () => {
    const { fetch, requests } = observingFetch();
    const client = createApiClient({ baseUrl: `${baseUrl}/`, apiKey, fetch, headers: { "X-Request-Id": "req-1" } });

    await client.GET("/webhooks/{id}/history", { params: { path: { id }, query: { limit: 20, page: 2 } } });

    expect(requests[0]!.url).toBe(`${baseUrl}/webhooks/${id}/history?limit=20&page=2`);
    expect(requests[0]!.headers.get("x-request-id")).toBe("req-1");
  });
});

describe("the client's own headers", () => {
  test("go on every call, and a call's null removes one for that call", async () => {
    const { fetch, requests } = observingFetch();
    const client = createApiClient({ baseUrl, apiKey, fetch, headers: { "X-Client": "portal" } });

    await client.GET("/webhooks");
    await client.GET("/webhooks", { headers: { "X-Client": null } });

    expect(requests.map((request) => request.headers.get("x-client"))).toEqual(["portal", null]);
  });
});

describe("a path the document does not have", () => {
  test("goes out without credentials: the middleware adds them only to the table's operations", async () => {
    const { fetch, requests } = observingFetch();
    const client = createApiClient({ baseUrl, apiKey, apiSecret, fetch });
    const loose = client as unknown as { GET: LooseCall };

    await loose.GET("/not-in-the-document");

    expect(requests.map((request) => [request.url, request.headers.has("authorization"), request.headers.has("x-api-key")])).toEqual([
      [`${baseUrl}/not-in-the-document`, false, false],
    ]);
  });
});

describe("a client without the API secret", () => {
  test("refuses POST /notifications before any request goes out, naming the missing option", async () => {
    const { fetch, requests } = observingFetch();
    const client = createApiClient({ baseUrl, apiKey, fetch });
    const loose = client as unknown as { POST: LooseCall };

    await expect(loose.POST("/notifications", { body: requestExample("post", "/notifications") })).rejects.toThrow(/X-Api-Key \+ X-Api-Secret.*apiSecret/);
    expect(requests).toHaveLength(0);
  });

  test("still calls every bearer operation", async () => {
    const { fetch, requests } = observingFetch();
    const client = createApiClient({ baseUrl, apiKey, fetch });
    const bearer = Object.values(operations).filter((op) => op.security[0] === "bearerAuth");

    for (const op of bearer) await call(client, op);

    expect(bearer.length).toBeGreaterThan(0);
    expect(requests.map((r) => r.headers.get("authorization"))).toEqual(bearer.map(() => `Bearer ${apiKey}`));
  });
});

describe("options that would send the wrong credentials are refused at creation", () => {
  test.each([
    ["an empty API key", { apiKey: "" }, /apiKey is required/],
    ["an API secret without a key", { apiSecret }, /apiKey is required/],
    ["an empty API secret", { apiKey, apiSecret: "" }, /apiSecret.*non-empty/],
    ["an API key that is not a string", { apiKey: 5 }, /apiKey is required/],
    ["an API secret that is not a string", { apiKey, apiSecret: 5 }, /apiSecret.*non-empty/],
    ["a bearer token in headers", { apiKey, headers: { authorization: `Bearer ${apiKey}` } }, /not as headers \(authorization\)/],
    ["the secret in headers", { apiKey, headers: { "X-Api-Secret": apiSecret } }, /not as headers \(X-Api-Secret\)/],
    [
      "both schemes in headers, each named",
      { apiKey, headers: { Authorization: `Bearer ${apiKey}`, "x-api-key": apiKey } },
      "createApiClient: pass credentials as apiKey/apiSecret, not as headers (Authorization, x-api-key)",
    ],
  ])("%s", (_name, options, message) => {
    expect(() => createApiClient({ baseUrl, ...options } as Parameters<typeof createApiClient>[0])).toThrow(message);
  });
});
