// A client made before the global fetch is replaced (a module-level client, then MSW's
// server.listen() in a test) uses the replacement: the global is looked up per request.
import { afterEach, expect, it, vi } from "vitest";
import { createApiClient } from "../../client/index.js";
import { successExample } from "../support/document.js";

afterEach(() => vi.unstubAllGlobals());

it("looks the global fetch up on every request, not when the client is made", async () => {
  const api = createApiClient({ baseUrl: "http://api.test/v1", apiKey: "ak_test" });
  const replacement = vi.fn(async () => Response.json(successExample("readWidget")));
  vi.stubGlobal("fetch", replacement);
  const { data } = await api.GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } });
  expect(replacement).toHaveBeenCalledTimes(1);
  expect(data).toEqual(successExample("readWidget"));
});
