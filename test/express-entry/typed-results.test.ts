// Typed results over a small test document (test/express-entry/gadgets/), not this API's
// contract: a 201 with Location, a 200 with a required header, a 204 without a body, a
// text/plain 200, each sent as the handler returned it; a status the document does not
// declare, a body for the 204 and an off-schema 201 body are the handler's bugs (500); the
// handler sees the request id and a logger bound to the request.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContractApp, type Handlers } from "../../server/contract-layer/index.js";
import type { ApiDocument } from "../../server/document/load.js";
import { captureLogs } from "../support/logs.js";
import { gadgetHandlers } from "./gadgets/handlers.js";
import type { operations } from "./gadgets/schema.js";

const document = JSON.parse(readFileSync(new URL("./gadgets/openapi.json", import.meta.url), "utf8")) as ApiDocument;
const caller = { applicationId: "app_1", organizationId: "org_1" };
const authenticate = {
  authenticateBearer: async (key: string) => (key === "good" ? caller : undefined),
  authenticateKeyPair: async () => undefined,
};

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

async function start(handlers: Handlers<operations>, logger = captureLogs("debug").logger): Promise<string> {
  const app = createContractApp<operations>({ handlers, authenticate, document: structuredClone(document), rateLimit: false, logger });
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
}

const auth = { authorization: "Bearer good" };
const json = { ...auth, "content-type": "application/json" };

describe("typed results", () => {
  let base: string;
  beforeAll(async () => {
    base = await start(gadgetHandlers());
  });

  it("201 with Location and the created body; 200 for the same name again", async () => {
    const created = await fetch(`${base}/gadgets`, { method: "POST", headers: json, body: JSON.stringify({ name: "Fan" }) });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe("/v2/gadgets/g2");
    expect(await created.json()).toEqual({ id: "g2", name: "Fan" });
    const again = await fetch(`${base}/gadgets`, { method: "POST", headers: json, body: JSON.stringify({ name: "Fan" }) });
    expect(again.status).toBe(200);
    expect(again.headers.get("location")).toBeNull();
  });

  it("200 with the handler's header beside the layer's", async () => {
    const response = await fetch(`${base}/gadgets/g1`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-revision")).toBe("3");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect(await response.json()).toEqual({ id: "g1", name: "Lamp" });
  });

  it("204 without a body or a content type", async () => {
    const response = await fetch(`${base}/gadgets/g1`, { method: "DELETE", headers: auth });
    expect(response.status).toBe(204);
    expect(response.headers.get("content-type")).toBeNull();
    expect(await response.text()).toBe("");
  });

  it("a text/plain 200", async () => {
    const response = await fetch(`${base}/gadgets/g1/label`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toMatch(/^g1: /);
  });

  it("validates and authenticates as for any document", async () => {
    expect((await fetch(`${base}/gadgets/g1`)).status).toBe(401);
    expect((await fetch(`${base}/gadgets/x1`, { headers: auth })).status).toBe(400);
    expect((await fetch(`${base}/gadgets`, { method: "POST", headers: json, body: "{}" })).status).toBe(400);
    const wrongMethod = await fetch(`${base}/gadgets/g1`, { method: "PUT", headers: auth });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET, DELETE");
  });
});

describe("a handler off its documented responses is answered 500, nothing of it sent", { timeout: 90_000 }, () => {
  const broken = (change: Partial<Record<keyof operations, (input: never) => unknown>>) => ({ ...gadgetHandlers(), ...change }) as Handlers<operations>;

  it.each([
    ["an undeclared status", "DELETE", "/gadgets/g1", { deleteGadget: () => ({ status: 200 }) }],
    ["a body for a 204", "DELETE", "/gadgets/g1", { deleteGadget: () => ({ status: 204, body: { id: "g1" } }) }],
    ["no body for a 201", "POST", "/gadgets", { createGadget: () => ({ status: 201, headers: { Location: "/v2/gadgets/g9" } }) }],
    ["a 201 body off its schema", "POST", "/gadgets", { createGadget: () => ({ status: 201, body: { id: 9 }, headers: { Location: "/x" } }) }],
  ] as const)("%s", async (_name, method, path, change) => {
    const base = await start(broken(change as never));
    const response = await fetch(`${base}${path}`, { method, headers: json, body: method === "POST" ? JSON.stringify({ name: "New" }) : undefined });
    expect(response.status).toBe(500);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });
});

describe("the handler's context", { timeout: 90_000 }, () => {
  it("holds the request id of the response and a logger whose lines carry it", async () => {
    const logs = captureLogs("debug");
    let seen: string | undefined;
    const base = await start(
      {
        ...gadgetHandlers(),
        readGadgetLabel: ({ requestId, log }) => {
          seen = requestId;
          log.info({ gadget: "g1" }, "label read");
          return { status: 200, body: "label" };
        },
      },
      logs.logger,
    );
    const response = await fetch(`${base}/gadgets/g1/label`, { headers: { ...auth, "x-request-id": "ctx-1" } });
    expect(response.headers.get("x-request-id")).toBe("ctx-1");
    expect(seen).toBe("ctx-1");
    const line = logs.records.find((record) => record.msg === "label read") as { req?: { id?: string }; gadget?: string } | undefined;
    expect(line?.req?.id).toBe("ctx-1");
    expect(line?.gadget).toBe("g1");
  });
});
