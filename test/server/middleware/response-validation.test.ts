// Response validation is on by default: a handler whose body leaves the document's 200
// schema is answered with a 500 instead, `code: internal_error` with the narrower type
// invalid_response, whose detail says where and which rule (from the document alone, never a
// value of the answer), and a log line with the validator's errors; so an off-contract
// handler fails a test, and a conformance run names why, instead of reaching a client. It can
// be turned off.
import { afterEach, describe, expect, it } from "vitest";
import type { Handlers } from "../../../server/contract-layer/contract.js";
import { problemOf, startHarness, type Harness } from "./harness.js";
import { appA } from "../../support/demo.js";
import { WidgetRead } from "../../../generated/examples.js";
import { responseValidator } from "../../../server/contract-layer/response-validator.js";
import { ResponseValidationFailed } from "../../../server/middleware/error-mapper.js";
import { doc } from "../../support/document.js";

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
  ])("turns %s into 500 internal_error of type invalid_response", async (_label, path, handlers) => {
    server = await startHarness({ rateLimit: false, handlers });
    const response = await fetch(`${server.url}${path}`, { headers: { ...bearer, "x-request-id": "bad-handler" } });
    expect(response.status).toBe(500);
    const problem = await problemOf(response);
    expect(problem).toMatchObject({ code: "internal_error", type: "https://api.authsvc.example/problems/invalid_response", title: "Invalid response", status: 500 });
    expect(problem.detail).toMatch(
      /^The service's answer does not match its contract \(response validation, a fault of the service, not of the request\): at \/\w+: must /,
    );
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

  it("says where and which rule from the document alone, never a value of the answer or a key it does not declare", async () => {
    const secret = "sk_live_do_not_echo_7f3a";
    const widget = WidgetRead.result;
    // Each breaks the contract once: a value where a const is due, a value of the wrong type,
    // a key the document does not declare (a map-like key of the handler's own).
    const answers: [unknown, string][] = [
      [{ type: secret, result: widget }, "at /type: must be equal to constant"],
      [{ type: WidgetRead.type, result: { ...widget, id: 42 } }, "at /result/id: must be string"],
      [{ type: WidgetRead.type, result: { ...widget, [`x_internal_${secret}`]: { nested: secret } } }, "at /result: must NOT have additional properties"],
    ];
    for (const [answer, says] of answers) {
      server = await startHarness({ rateLimit: false, handlers: { readWidget: (() => answer) as unknown as Handlers["readWidget"] } });
      const response = await fetch(`${server.url}/widgets/wgt_5a3c8e1f7b92`, { headers: bearer });
      const text = await response.text();
      expect(response.status).toBe(500);
      expect(text).not.toContain(secret);
      expect(text).not.toContain("x_internal");
      expect((JSON.parse(text) as { detail: string }).detail).toContain(`(response validation, a fault of the service, not of the request): ${says}. The X-Request-Id`);
      await server.close();
      server = undefined;
    }
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

  it("shows a key of the answer's own, under a map schema, as `*` in the pointer; a missing property by its declared name", () => {
    // A document whose widget holds a map (`labels`: any key, string values).
    const withMap = structuredClone(doc);
    withMap.components.schemas.Widget.properties.labels = { type: "object", additionalProperties: { type: "string" } };
    const failures = (body: unknown) => {
      try {
        responseValidator(withMap).check("readWidget", 200, body);
      } catch (error) {
        if (error instanceof ResponseValidationFailed) return error.failure.failures;
        throw error;
      }
      return [];
    };
    const { id: _id, ...withoutId } = WidgetRead.result;
    expect(failures({ ...WidgetRead, result: { ...WidgetRead.result, labels: { "customer~secret/key": 5 } } })).toEqual([
      { pointer: "/result/labels/*", message: "must be string" },
    ]);
    expect(failures({ ...WidgetRead, result: { ...withoutId } })).toEqual([{ pointer: "/result/id", message: "must have required property 'id'" }]);
    expect(failures({ ...WidgetRead, result: { ...WidgetRead.result, labels: { color: "red" } } })).toEqual([]);
  });
});
