// saveEmailTransport (POST /custom/emails): one transport per application, created or replaced (same id,
// created_at and counters), auth encrypted at rest and answered only as an opaque token,
// domain/region derived, is_verified reset by a change of type or auth; on every store
// (test/support/stores.ts).
import { expect, it } from "vitest";
import { loadSeed } from "../../server/seed/load.js";
import type { Seed } from "../../server/seed/types.js";
import { forEachStore } from "../support/stores.js";
import { openAuth } from "../../server/crypto/email-auth.js";
import type { EmailSettingsSave } from "../../server/domain/index.js";
import { demo } from "../support/demo.js";
import { callerA, callerB, fixedNow, offending, problemOf, setupOn, type Setup } from "../server/operations/harness.js";

const demoSeed = loadSeed();
const tokenPattern = /^enc:v1:[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/;
const ses = { region: "eu-west-1", accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" };
const sendgrid = { api_key: "SG.test-9f2c7a1e4b8d6053.rotate-me" };
const addresses = { email_from: "no-reply@Mail.Acme-Shop.example", email_admin: "admin@acme-shop.example" };
const save = async (setup: () => Promise<Setup>, body: EmailSettingsSave, caller = callerA) => {
  const { call, store } = await setup();
  const saved = call("saveEmailTransport", { body, caller });
  // Awaited later by the test; on a database it may fail before then.
  saved.catch(() => undefined);
  return { store, saved, call };
};

forEachStore("saveEmailTransport", (stores) => {
  const setup = async (seed: Seed = demoSeed) => setupOn(await stores.fresh(seed));

  it("replaces the stored transport: same id, created_at and counters; SES region; domain of email_from", async () => {
    const { saved } = await save(setup, { type: "SES", ...addresses, auth: ses });
    expect((await saved).result).toEqual({
      id: "eml_8f3b1e6c2a9d",
      type: "SES",
      is_verified: false,
      auth: expect.stringMatching(tokenPattern),
      email_from: "no-reply@Mail.Acme-Shop.example",
      email_reply: "",
      email_admin: "admin@acme-shop.example",
      from_name: "",
      domain: "mail.acme-shop.example",
      send_count: 1280,
      fail_count: 3,
      organization_id: demo.a.organizationId,
      application_id: demo.a.applicationId,
      created_at: "2026-01-20T11:00:00.000Z",
      region: "eu-west-1",
    });
  });

  it("creates the first transport with a new id, the clock's time and zero counters", async () => {
    const { saved, store } = await save(setup, { type: "SENDGRID", ...addresses, email_reply: "help@globex.example", from_name: "Globex", auth: sendgrid }, callerB);
    const result = (await saved).result;
    expect(result).toMatchObject({
      type: "SENDGRID",
      is_verified: false,
      send_count: 0,
      fail_count: 0,
      created_at: fixedNow.toISOString(),
      region: "",
      email_reply: "help@globex.example",
      from_name: "Globex",
      application_id: demo.b.applicationId,
    });
    expect(result.id).toMatch(/^eml_[0-9a-f]{12}$/);
    expect(await store.emailTransport(callerB.applicationId)).toEqual(result);
  });

  it("requires auth on the first save", async () => {
    const { saved } = await save(setup, { type: "SENDGRID", ...addresses }, callerB);
    expect(offending(await problemOf(() => saved, "validation_failed"))).toEqual(["/auth"]);
  });

  it("requires auth when the type changes, and leaves the stored transport as it was", async () => {
    const { call, store } = await setup();
    // A deep copy taken before the call: a store that wrote before refusing must show here.
    const before = structuredClone(await store.emailTransport(callerA.applicationId));
    expect(before).toMatchObject({ type: "SENDGRID" });
    const problem = await problemOf(() => call("saveEmailTransport", { body: { type: "SES", ...addresses } }), "validation_failed");
    expect(offending(problem)).toEqual(["/auth"]);
    expect(await store.emailTransport(callerA.applicationId)).toEqual(before);
  });

  it("keeps the stored auth and is_verified when auth is left out and the type is unchanged", async () => {
    const { call, store } = await setup();
    const before = structuredClone((await store.emailTransport(callerA.applicationId))!);
    expect(before).toMatchObject({ type: "SENDGRID", is_verified: true });
    const result = (await call("saveEmailTransport", { body: { type: "SENDGRID", ...addresses, from_name: "Acme" } })).result;
    expect(result).toEqual({ ...before, ...addresses, email_reply: "", from_name: "Acme", domain: "mail.acme-shop.example", region: "" });
    expect(await store.emailTransport(callerA.applicationId)).toEqual(result);
  });

  it("hands out copies: changing a record it answered changes nothing stored", async () => {
    const { store } = await setup();
    const before = structuredClone(await store.emailTransport(callerA.applicationId));
    const handedOut = (await store.emailTransport(callerA.applicationId))!;
    handedOut.type = "SES";
    handedOut.auth = "tampered";
    expect(await store.emailTransport(callerA.applicationId)).toEqual(before);
  });

  it("keeps is_verified when the same auth is sent again, resets it when the auth changes", async () => {
    const { call, store } = await setup();
    const stored = openAuth((await store.emailTransport(callerA.applicationId))!.auth) as typeof sendgrid;
    const same = await call("saveEmailTransport", { body: { type: "SENDGRID", ...addresses, auth: { ...stored } } });
    expect(same.result.is_verified).toBe(true);
    const changed = await call("saveEmailTransport", { body: { type: "SENDGRID", ...addresses, auth: sendgrid } });
    expect(changed.result.is_verified).toBe(false);
    expect(changed.result.auth).not.toBe(same.result.auth);
  });

  it("keeps auth encrypted: the token opens to the submitted auth and the store holds no clear copy", async () => {
    const { saved, store } = await save(setup, { type: "SES", ...addresses, auth: ses });
    const result = (await saved).result;
    expect(openAuth(result.auth)).toEqual(ses);
    const stored = JSON.stringify(await store.emailTransport(callerA.applicationId));
    expect(stored).not.toContain(ses.accessKeyId);
    expect(stored).not.toContain(ses.secretAccessKey);
  });

  it("answers no submitted secret in any response", async () => {
    const { call } = await setup();
    const secrets = [sendgrid.api_key, ses.accessKeyId, ses.secretAccessKey];
    const bodies = [
      await call("saveEmailTransport", { body: { type: "SENDGRID", ...addresses, auth: sendgrid } }),
      await call("saveEmailTransport", { body: { type: "SES", ...addresses, auth: ses } }),
      await call("saveEmailTransport", { body: { type: "SES", ...addresses } }),
      await call("saveEmailTransport", { body: { type: "SENDGRID", ...addresses, auth: sendgrid }, caller: callerB }),
    ];
    for (const body of bodies) {
      const text = JSON.stringify(body);
      for (const secret of secrets) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(Buffer.from(secret).toString("base64url"));
      }
    }
  });
});
