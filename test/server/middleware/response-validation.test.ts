// Response validation is on by default: a handler whose body leaves the document's 200
// schema is answered with a generic 500 and a log line saying response validation failed,
// so an off-contract handler fails a test instead of reaching a client. It can be turned off.
import { afterEach, describe, expect, it } from "vitest";
import type { Handlers } from "../../../server/contract-layer/contract.js";
import { problemOf, startHarness, type Harness } from "./harness.js";
import { appA } from "../../support/demo.js";

// Typed as the real handler would be, then broken the ways a bug breaks it.
const wrongType = (() => ({ type: "api.application.widget.get", result: {} })) as unknown as Handlers["readWidget"];
const missingField = (() => ({ type: "api.application.webhook.find", result: [] })) as unknown as Handlers["findWebhooks"];

let server: Harness | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const bearer = { authorization: `Bearer ${appA.apiKey}` };

describe("response validation", () => {
  it.each([
    ["a wrong type string and an empty result", "/widgets/wgt_5a3c8e1f7b92", { readWidget: wrongType }],
    ["a list without meta", "/webhooks", { findWebhooks: missingField }],
  ])("turns %s into 500 internal_error", async (_label, path, handlers) => {
    server = await startHarness({ rateLimit: false, handlers });
    const response = await fetch(`${server.url}${path}`, { headers: { ...bearer, "x-request-id": "bad-handler" } });
    expect(response.status).toBe(500);
    const problem = await problemOf(response);
    expect(problem.code).toBe("internal_error");
    expect(problem.detail).not.toMatch(/validation|schema|must|result/i);
    const line = server.logs.find((entry) => String(entry.msg).startsWith("response validation failed"));
    expect(line, "a log line says response validation failed").toBeDefined();
    expect(line).toMatchObject({ level: 50, req: { id: "bad-handler" }, operationId: expect.any(String), responseErrors: expect.any(Array) });
  });

  it("logs the operation and the validator's errors, and sends none of the handler's headers with the 500", async () => {
    // A typed result (a wrong `type`) whose headers were set on the response before its body was refused.
    const withHeaders = (() => ({
      status: 200,
      body: { type: "api.application.widget.get", result: {} },
      headers: { "X-Widget-Revision": "7" },
    })) as unknown as Handlers["readWidget"];
    server = await startHarness({ rateLimit: false, handlers: { readWidget: withHeaders } });
    const response = await fetch(`${server.url}/widgets/wgt_5a3c8e1f7b92`, { headers: bearer });
    expect(response.status).toBe(500);
    expect(response.headers.get("x-widget-revision")).toBeNull();
    const line = server.logs.find((entry) => String(entry.msg).startsWith("response validation failed"));
    expect(line).toMatchObject({
      operationId: "readWidget",
      responseErrors: [{ path: "/response/type", message: "must be equal to constant", errorCode: "const.openapi.validation" }],
    });
  });

  it("lets the real handlers through", async () => {
    server = await startHarness({ rateLimit: false });
    const response = await fetch(`${server.url}/widgets/wgt_5a3c8e1f7b92`, { headers: bearer });
    expect(response.status).toBe(200);
    expect(server.logs.some((entry) => String(entry.msg).startsWith("response validation failed"))).toBe(false);
  });

  it("is off with validateResponses: false (the production setting benchmarks measure)", async () => {
    server = await startHarness({ rateLimit: false, validateResponses: false, handlers: { readWidget: wrongType } });
    const response = await fetch(`${server.url}/widgets/wgt_5a3c8e1f7b92`, { headers: bearer });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { type: string }).type).toBe("api.application.widget.get");
  });
});
