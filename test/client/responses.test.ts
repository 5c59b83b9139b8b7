// What a caller gets back: the 200 body as `data`; a declared error as `error`, the
// problem+json body as sent; an undeclared status (here 418 with a text body) with
// `response.ok === false`, so it is never mistaken for a success.
import { describe, expect, test } from "vitest";
import { createApiClient } from "../../client/index.js";
import { appA } from "../support/demo.js";
import { exampleId, namedExample } from "../support/document.js";
import { httpServer } from "./hostile-servers.js";
import { observingFetch } from "./observe.js";

const baseUrl = "http://api.test/v1";
const { apiKey } = appA;

describe("responses", () => {
  test("a 200 body comes back as data, parsed", async () => {
    const widget = namedExample("WidgetRead");
    const { fetch } = observingFetch(() => Response.json(widget));
    const client = createApiClient({ baseUrl, apiKey, fetch });

    const { data, error, response } = await client.GET("/widgets/{id}", { params: { path: { id: exampleId("readWidget") } } });

    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    expect(data).toEqual(widget);
    expect(data?.result.id).toBe(exampleId("readWidget"));
  });

  test("a declared error comes back as the problem body", async () => {
    const problem = namedExample("ReadWidgetNotFoundProblem") as { status: number };
    const { fetch } = observingFetch(() => new Response(JSON.stringify(problem), { status: problem.status, headers: { "Content-Type": "application/problem+json" } }));
    const client = createApiClient({ baseUrl, apiKey, fetch });

    const { data, error, response } = await client.GET("/widgets/{id}", { params: { path: { id: "wgt_0000000000" } } });

    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error).toEqual(problem);
    expect(error?.code).toBe("not_found");
  });

  test("an undeclared status with a text body is still a failure: response.ok is false", async () => {
    const { fetch } = observingFetch(() => new Response("I'm a teapot", { status: 418, headers: { "Content-Type": "text/plain" } }));
    const client = createApiClient({ baseUrl, apiKey, fetch });

    const { data, error, response } = await client.GET("/webhooks");

    expect(response.ok).toBe(false);
    expect(response.status).toBe(418);
    expect(data).toBeUndefined();
    // openapi-fetch hands back the raw text: `error` is only a Problem for declared statuses.
    expect(error).toBe("I'm a teapot");
  });

  test("a body the client has read cannot be read again: the caller gets fetch's TypeError, not an empty rejection", async () => {
    const { fetch } = observingFetch(() => Response.json(namedExample("WidgetRead")));
    const { response } = await createApiClient({ baseUrl, apiKey, fetch }).GET("/widgets/{id}", { params: { path: { id: exampleId("readWidget") } } });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toBeInstanceOf(TypeError);
  });

  test("the response is the one from the wire: its url, and redirected false (the client follows none)", async () => {
    const api = await httpServer((response) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(namedExample("WidgetRead"))));
    try {
      const { response } = await createApiClient({ baseUrl: api.baseUrl, apiKey }).GET("/widgets/{id}", { params: { path: { id: exampleId("readWidget") } } });
      expect(response.url).toBe(`${api.baseUrl}/widgets/${exampleId("readWidget")}`);
      expect(response.redirected).toBe(false);
    } finally {
      await api.close();
    }
  });

  test("a 200 without a body (a fetch passed in answering new Response(null), as MSW's new HttpResponse(null)): data is undefined", async () => {
    const { fetch } = observingFetch(() => new Response(null));
    const { data, error, response } = await createApiClient({ baseUrl, apiKey, fetch }).GET("/webhooks");
    expect(response.status).toBe(200);
    expect(data).toBeUndefined();
    expect(error).toBeUndefined();
  });

  test("a body taken as a stream is not read ahead: nothing is pulled from the fetch's body until the caller reads", async () => {
    let pulls = 0;
    const chunk = new TextEncoder().encode("[]");
    const body = new ReadableStream<Uint8Array>({ pull: (controller) => void (pulls++, controller.enqueue(chunk)) }, { highWaterMark: 0 });
    const { fetch } = observingFetch(() => new Response(body));
    const { data } = await createApiClient({ baseUrl, apiKey, fetch }).GET("/webhooks", { parseAs: "stream" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(pulls).toBe(0);
    const reader = (data as unknown as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).value).toEqual(chunk);
    expect(pulls).toBe(1);
    await reader.cancel();
  });

  test("where the platform has no Response.bytes (the baseline's Chrome 116, Safari 17.4), the response has none either", async () => {
    const bytes = Object.getOwnPropertyDescriptor(Response.prototype, "bytes")!;
    delete (Response.prototype as { bytes?: unknown }).bytes;
    try {
      const { fetch } = observingFetch(() => Response.json([]));
      const { response } = await createApiClient({ baseUrl, apiKey, fetch }).GET("/webhooks");
      expect("bytes" in response).toBe(false);
    } finally {
      Object.defineProperty(Response.prototype, "bytes", bytes);
    }
  });

  test("where reading an errored body rejects with a TypeError whatever the error (as Chromium does), the call rejects with the guard's own", async () => {
    const names = ["text", "json"] as const;
    const native = names.map((name) => Object.getOwnPropertyDescriptor(Response.prototype, name)!);
    names.forEach((name, index) => {
      const read = native[index]!.value as (this: Response) => Promise<unknown>;
      Object.defineProperty(Response.prototype, name, {
        ...native[index],
        value(this: Response) {
          return read.call(this).catch(() => {
            throw new TypeError("Failed to fetch");
          });
        },
      });
    });
    try {
      const { fetch } = observingFetch(() => Response.json(namedExample("WidgetRead")));
      await expect(createApiClient({ baseUrl, apiKey, fetch, maxResponseBytes: 10 }).GET("/webhooks")).rejects.toMatchObject({
        name: "ResponseTooLargeError",
        limit: 10,
      });
    } finally {
      names.forEach((name, index) => Object.defineProperty(Response.prototype, name, native[index]!));
    }
  });

  test("a network failure rejects, it is not turned into data or error", async () => {
    const client = createApiClient({ baseUrl, apiKey, fetch: () => Promise.reject(new TypeError("fetch failed")) });

    await expect(client.GET("/webhooks")).rejects.toThrow("fetch failed");
  });
});
