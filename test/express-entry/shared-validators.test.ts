// Apps over the same document share the validators compiled for it (server/contract-layer/validator.ts):
// a second app's first request compiles nothing, and an app over a document that differs in
// one constraint compiles its own and enforces that constraint, while the first app keeps its.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import OpenApiValidator from "express-openapi-validator";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createContractApp } from "../../server/contract-layer/index.js";
import type { ApiDocument } from "../../server/document/load.js";
import { captureLogs } from "../support/logs.js";
import { gadgetHandlers } from "./gadgets/handlers.js";
import type { operations } from "./gadgets/schema.js";

const document = JSON.parse(readFileSync(new URL("./gadgets/openapi.json", import.meta.url), "utf8")) as ApiDocument;
const authenticate = {
  authenticateBearer: async (key: string) => (key === "good" ? { applicationId: "app_1", organizationId: "org_1" } : undefined),
  authenticateKeyPair: async () => undefined,
};
const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

async function start(over: ApiDocument): Promise<string> {
  const app = createContractApp<operations>({ handlers: gadgetHandlers(), authenticate, document: over, rateLimit: false, logger: captureLogs("error").logger });
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
}

const create = (base: string, name: string) =>
  fetch(`${base}/gadgets`, { method: "POST", headers: { authorization: "Bearer good", "content-type": "application/json" }, body: JSON.stringify({ name }) });

describe("validators shared between apps over one document", () => {
  const built = vi.spyOn(OpenApiValidator, "middleware");

  it("a second app over a copy of the document compiles nothing; a changed document compiles its own", async () => {
    const first = await start(structuredClone(document));
    expect((await create(first, "abc")).status).toBe(201);

    const before = built.mock.calls.length;
    const second = await start(structuredClone(document));
    expect((await create(second, "abc")).status).toBe(201);
    expect(built.mock.calls.length).toBe(before);

    // A minimum length no other test uses: this document's validator cannot be in the cache yet.
    const stricter = structuredClone(document) as ApiDocument & { components: { schemas: { GadgetCreate: { properties: { name: { minLength: number } } } } } };
    stricter.components.schemas.GadgetCreate.properties.name.minLength = 7919;
    const third = await start(stricter);
    expect((await create(third, "abc")).status).toBe(400);
    expect(built.mock.calls.length).toBe(before + 1);
    // The first app still answers by its own document.
    expect((await create(first, "abcd")).status).toBe(201);
  });
});
