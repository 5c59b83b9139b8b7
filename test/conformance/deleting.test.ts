// The pattern for operations that delete data, on the gadgets test document (its DELETE
// /gadgets/{id}): a check that uses up a record (`consumes`) runs after every other check
// whatever its place in the list, on a record of `fixtures.disposable` of its own, never on
// the shared fixture the other checks read; it is skipped, naming what it needs, without
// one; and a DELETE that answers 204 but deletes nothing fails it.
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { expectProblem, expectThat } from "../../conformance/expect.js";
import { viaFetch } from "../../conformance/http.js";
import { runChecks, type Check, type Target } from "../../conformance/suite.js";
import { createContractApp, listen, notFound, type Handlers, type Listening } from "../../server/contract-layer/index.js";
import type { ApiDocument } from "../../server/document/load.js";
import { gadgetHandlers } from "../express-entry/gadgets/handlers.js";
import type { operations } from "../express-entry/gadgets/schema.js";

const document = JSON.parse(readFileSync(new URL("../express-entry/gadgets/openapi.json", import.meta.url), "utf8")) as ApiDocument;
const authenticate = {
  authenticateBearer: async (key: string) => (key === "good" ? { applicationId: "app_1", organizationId: "org_1" } : undefined),
  authenticateKeyPair: async () => undefined,
};
const running: Listening[] = [];
afterAll(() => Promise.all(running.map((server) => server.close())));

async function gadgetService(handlers: Handlers<operations>): Promise<string> {
  const app = createContractApp<operations>({ handlers, authenticate, document: structuredClone(document), rateLimit: false, failedAuthLimit: false });
  const server = await listen(app, { closeTimeoutMs: 100 });
  running.push(server);
  return `${server.origin}/v2`;
}

// Gadgets stand in the `widget` fixture slot: the runner only moves ids between slots.
const order: string[] = [];
const readShared: Check = {
  name: "readGadget: 200 for the shared gadget",
  operationId: "readGadget" as never,
  needs: ["widget"],
  run: async (target) => {
    order.push(`read ${target.fixtures.widget}`);
    const observed = await viaFetch(target, { method: "GET", path: `/gadgets/${target.fixtures.widget}`, credentials: "bearer" });
    expectThat(observed.status === 200, `status: expected 200, got ${observed.status}`);
  },
};
const deleteDisposable: Check = {
  name: "deleteGadget: 204 on a disposable gadget, then 404 for it (run last)",
  operationId: "deleteGadget" as never,
  needs: ["widget"],
  consumes: "widget",
  run: async (target) => {
    order.push(`delete ${target.fixtures.widget}`);
    const request = { method: "DELETE", path: `/gadgets/${target.fixtures.widget}`, credentials: "bearer" } as const;
    const deleted = await viaFetch(target, request);
    expectThat(deleted.status === 204, `status: expected 204, got ${deleted.status}`);
    expectProblem(404, await viaFetch(target, { ...request, method: "GET" }));
  },
};

/** A gadget service whose reads answer 404 for a deleted gadget. */
function handlersOver(gadgets: Map<string, string>, deletes = true): Handlers<operations> {
  const base = gadgetHandlers(gadgets);
  return {
    ...base,
    readGadget: (input) => {
      if (!gadgets.has(input.path.id)) throw notFound(`No gadget ${input.path.id}.`);
      return base.readGadget(input);
    },
    deleteGadget: deletes ? base.deleteGadget : () => ({ status: 204 }),
  };
}

const target = (baseUrl: string, disposable?: string[]): Target => ({
  name: "gadgets",
  baseUrl,
  apiKey: "good",
  stateful: true,
  fixtures: { widget: "g1", ...(disposable ? { disposable: { widget: disposable } } : {}) },
});

describe("a deleting operation's check", () => {
  it("runs last on a disposable record, and the shared one survives", async () => {
    const gadgets = new Map([
      ["g1", "Lamp"],
      ["g2", "Spare lamp"],
    ]);
    order.length = 0;
    const outcomes = await runChecks(target(await gadgetService(handlersOver(gadgets)), ["g2"]), [deleteDisposable, readShared]);
    expect(outcomes.map((o) => [o.check.name, o.status, o.detail])).toEqual([
      [deleteDisposable.name, "passed", undefined],
      [readShared.name, "passed", undefined],
    ]);
    expect(order).toEqual(["read g1", "delete g2"]);
    expect([...gadgets.keys()]).toEqual(["g1"]);
  });

  it("is skipped, naming what it needs, without a disposable record; nothing is deleted", async () => {
    const gadgets = new Map([["g1", "Lamp"]]);
    const [deleted, read] = await runChecks(target(await gadgetService(handlersOver(gadgets))), [deleteDisposable, readShared]);
    expect(deleted).toMatchObject({ status: "skipped", detail: expect.stringContaining('needs one more in "disposable": { "widget": [...] }') });
    expect(read!.status).toBe("passed");
    expect([...gadgets.keys()]).toEqual(["g1"]);
  });

  it("fails against a DELETE that answers 204 and deletes nothing", async () => {
    const gadgets = new Map([
      ["g1", "Lamp"],
      ["g2", "Spare lamp"],
    ]);
    const [deleted] = await runChecks(target(await gadgetService(handlersOver(gadgets, false)), ["g2"]), [deleteDisposable, readShared]);
    expect(deleted).toMatchObject({ status: "failed", detail: expect.stringMatching(/^status: expected 404, got 200/) });
  });
});
