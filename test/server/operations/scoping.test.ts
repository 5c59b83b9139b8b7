// Every read and write is scoped to the caller's application: another application's id
// answers exactly what an unknown id answers (404 not_found), never its record.
import { describe, expect, it } from "vitest";
import { demo } from "../../support/demo.js";
import { callerB, problemOf, setup } from "./harness.js";

const unknown = "zzz_000000000000";

// [operation, an id of application A, its path for a record of A]
const reads = [
  ["readWidget", "wgt_5a3c8e1f7b92"],
  ["findUserActivity", "usr_7d2e9a4c1b6f"],
  ["readWebhook", "whk_3a7f1c9e5b2d"],
  ["findWebhookHistory", "whk_3a7f1c9e5b2d"],
] as const;

describe("scoping to the caller's application", () => {
  it.each(reads)("%s answers A's record to A", async (op, id) => {
    const { call } = setup();
    await expect(call(op, { path: { id } })).resolves.toMatchObject({ result: expect.anything() });
  });

  it.each(reads)("%s answers B's request for A's id like an unknown id (404)", async (op, id) => {
    const { call } = setup();
    const foreign = await problemOf(() => call(op, { path: { id }, caller: callerB }), "not_found");
    const missing = await problemOf(() => call(op, { path: { id: unknown }, caller: callerB }), "not_found");
    expect(foreign.status).toBe(404);
    expect(foreign.detail.replace(id, "<id>")).toBe(missing.detail.replace(unknown, "<id>"));
  });

  it("updateSmsProvider refuses another application's provider with 404 and leaves it unchanged", async () => {
    const { call, store } = setup();
    const before = structuredClone(await store.smsProviders(callerB.applicationId));
    await problemOf(() => call("updateSmsProvider", { path: { id: "sms_5b1e8d3f9a2c" }, body: { name: "Hijacked" } }), "not_found");
    await problemOf(() => call("updateSmsProvider", { path: { id: "sms_2c7e9b4f1a6d" }, body: { name: "Hijacked" }, caller: callerB }), "not_found");
    expect(await store.smsProviders(callerB.applicationId)).toEqual(before);
  });

  it("lists hold only the caller's records", async () => {
    const { call } = setup();
    const hooksA = await call("findWebhooks");
    const hooksB = await call("findWebhooks", { caller: callerB });
    expect(hooksA.result.map((w) => w.application_id)).toEqual([demo.a.applicationId, demo.a.applicationId]);
    expect(hooksB.result.map((w) => w.id)).toEqual(["whk_6c2e9f4a1b7d"]);
    const reportsB = await call("findEncryptionReports", { caller: callerB });
    expect(reportsB.result.map((r) => r.id)).toEqual(["rep_8f3a1d6c2e9b"]);
  });

  it("each application saves its own e-mail transport", async () => {
    const { call, store } = setup();
    const before = structuredClone(await store.emailTransport(demo.a.applicationId));
    const saved = await call("saveEmailTransport", {
      caller: callerB,
      body: { type: "SENDGRID", email_from: "mail@globex.example", email_admin: "admin@globex.example", auth: { api_key: "SG.globex-key" } },
    });
    expect(saved.result.id).not.toBe("eml_8f3b1e6c2a9d");
    expect(saved.result.application_id).toBe(demo.b.applicationId);
    expect(await store.emailTransport(demo.a.applicationId)).toEqual(before);
  });
});
