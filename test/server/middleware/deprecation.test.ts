// Deprecation (RFC 9745) and Sunset (RFC 8594) headers, in this process: the contract app
// over a copy of the document with two operations deprecated (readWidget, readWebhook, each
// with its own dates) answers each of them with its own headers, errors included, and no
// other operation or method; the dates are read as docs/versioning.md says, an absent or
// invalid one leaving its header out. The generated types and the rendered badge of a
// deprecated part are test/versioning/deprecation.test.ts's (Chromium).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDocument, type ApiDocument } from "../../../server/document/load.js";
import { createContractApp, listen, type Listening } from "../../../server/contract-layer/index.js";
import { createHandlers } from "../../../server/handlers/index.js";
import { deprecation, deprecationHeaders } from "../../../server/middleware/deprecation.js";
import { loadSeed } from "../../../server/seed/load.js";
import { createStore } from "../../../server/store/memory.js";
import { appA } from "../../support/demo.js";
import { exampleId } from "../../support/document.js";

const widgetDates = { "x-deprecated-at": "2026-12-01", "x-sunset": "2027-06-01" };
const webhookDates = { "x-deprecated-at": "2026-12-15T12:00:00Z", "x-sunset": "2027-07-01" };

function deprecatedCopy(): ApiDocument {
  const copy = structuredClone(loadDocument());
  const paths = copy.paths as unknown as Record<"/widgets/{id}" | "/webhooks/{id}", { get: object }>;
  Object.assign(paths["/widgets/{id}"].get, { deprecated: true }, widgetDates);
  Object.assign(paths["/webhooks/{id}"].get, { deprecated: true }, webhookDates);
  return copy;
}

describe("the contract app over a document with deprecated operations", () => {
  let server: Listening;
  beforeAll(async () => {
    const store = createStore(loadSeed());
    const app = createContractApp({ document: deprecatedCopy(), handlers: createHandlers({ store, clock: () => new Date() }), authenticate: store, rateLimit: false });
    server = await listen(app, { idleGraceMs: 0 });
  });
  afterAll(() => server?.close());
  const get = (path: string, init: RequestInit = { headers: { authorization: `Bearer ${appA.apiKey}` } }) => fetch(`${server.origin}/v1${path}`, init);
  const datesOf = (response: Response) => ({ deprecation: response.headers.get("deprecation"), sunset: response.headers.get("sunset") });

  it("answers each deprecated operation with its own Deprecation and Sunset", async () => {
    const widget = await get(`/widgets/${exampleId("readWidget")}`);
    expect(widget.status).toBe(200);
    expect(datesOf(widget)).toEqual({ deprecation: `@${Date.UTC(2026, 11, 1) / 1000}`, sunset: "Tue, 01 Jun 2027 00:00:00 GMT" });
    const webhook = await get(`/webhooks/${exampleId("readWebhook")}`);
    expect(webhook.status).toBe(200);
    expect(datesOf(webhook)).toEqual({ deprecation: `@${Date.UTC(2026, 11, 15, 12) / 1000}`, sunset: "Thu, 01 Jul 2027 00:00:00 GMT" });
  });

  it("sends them on the operation's error answers too", async () => {
    const response = await get(`/widgets/${exampleId("readWidget")}`, {});
    expect(response.status).toBe(401);
    expect(datesOf(response)).toEqual({ deprecation: "@1796083200", sunset: "Tue, 01 Jun 2027 00:00:00 GMT" });
  });

  it("sends neither on an operation in good standing, nor on another method of a deprecated path", async () => {
    const webhooks = await get("/webhooks");
    expect(webhooks.status).toBe(200);
    expect(datesOf(webhooks)).toEqual({ deprecation: null, sunset: null });
    const post = await get(`/widgets/${exampleId("readWidget")}`, { method: "POST", headers: { authorization: `Bearer ${appA.apiKey}` } });
    expect(post.status).toBe(405);
    expect(datesOf(post)).toEqual({ deprecation: null, sunset: null });
  });
});

describe("deprecationHeaders", () => {
  it("is undefined unless the operation says `deprecated: true`", () => {
    expect(deprecationHeaders({ ...widgetDates })).toBeUndefined();
    expect(deprecationHeaders({ deprecated: false, ...widgetDates })).toBeUndefined();
    expect(deprecationHeaders({ deprecated: "true", ...widgetDates })).toBeUndefined();
  });

  it("sends the header of each date given, and only that one", () => {
    expect(deprecationHeaders({ deprecated: true, "x-sunset": "2027-06-01" })).toEqual({ Sunset: "Tue, 01 Jun 2027 00:00:00 GMT" });
    expect(deprecationHeaders({ deprecated: true, "x-deprecated-at": "2026-12-01" })).toEqual({ Deprecation: "@1796083200" });
  });

  it("reads a date a YAML parser gave as a Date, and leaves out one that is not a date", () => {
    expect(deprecationHeaders({ deprecated: true, "x-deprecated-at": new Date(Date.UTC(2026, 11, 1)), "x-sunset": new Date(Date.UTC(2027, 5, 1)) })).toEqual({
      Deprecation: "@1796083200",
      Sunset: "Tue, 01 Jun 2027 00:00:00 GMT",
    });
    // Unix seconds and null are not dates of the document (new Date() would read them as 1970).
    expect(deprecationHeaders({ deprecated: true, "x-deprecated-at": 1796083200, "x-sunset": null })).toEqual({});
    expect(deprecationHeaders({ deprecated: true, "x-deprecated-at": "soon", "x-sunset": "2027-13-01" })).toEqual({});
  });

  it("gives a middleware only for a document that deprecates an operation", () => {
    expect(deprecation(loadDocument(), "/v1")).toBeUndefined();
    // Here too, not only in beforeAll above: Stryker's per-test coverage does not count a hook.
    expect(deprecation(deprecatedCopy(), "/v1")).toBeTypeOf("function");
  });
});
