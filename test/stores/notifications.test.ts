// createNotification (POST /notifications) beyond the schema: receivers must be users of the application who
// have logged in (by id or e-mail, any case), groups must exist, send_at may be at most 60 s
// in the past; the answer is PENDING with an ISO send_at and the defaults filled in; on every
// store (test/support/stores.ts).
import { expect, it } from "vitest";
import { loadSeed } from "../../server/seed/load.js";
import type { Seed } from "../../server/seed/types.js";
import { forEachStore } from "../support/stores.js";
import type { NotificationCreate } from "../../server/domain/index.js";
import { notificationsKept } from "../../server/rules/notifications.js";
import { demo } from "../support/demo.js";
import { callerA, fixedNow, offending, problemOf, seedWith, setupOn } from "../server/operations/harness.js";

const demoSeed = loadSeed();
const nowSeconds = fixedNow.getTime() / 1000;
const simple = (extra: Partial<NotificationCreate>): NotificationCreate => ({ type: "SIMPLE", title: "Hello", content: "A notice", ...extra }) as NotificationCreate;

forEachStore("createNotification", (stores) => {
  const setup = async (seed: Seed = demoSeed) => setupOn(await stores.fresh(seed));

  it("answers PENDING with defaults, a new id and send_at now", async () => {
    const { call, store } = await setup();
    const body = await call("createNotification", { body: simple({ receivers: ["usr_7d2e9a4c1b6f"] }) });
    expect(body).toEqual({
      type: "api.application.notification.create",
      result: {
        id: expect.stringMatching(/^ntf_[0-9a-f]{12}$/),
        type: "SIMPLE",
        status: "PENDING",
        title: "Hello",
        content: "A notice",
        level: 0,
        open_count: 0,
        send_at: fixedNow.toISOString(),
        name: "",
        receivers: ["usr_7d2e9a4c1b6f"],
      },
    });
    expect(await store.notifications(callerA.applicationId)).toEqual([body.result]);
  });

  it("gives each notification its own id", async () => {
    const { call } = await setup();
    const a = await call("createNotification", { body: simple({ broadcast: true }) });
    const b = await call("createNotification", { body: simple({ broadcast: true }) });
    expect(a.result.id).not.toBe(b.result.id);
  });

  it("takes send_at in Unix seconds and answers it as ISO with milliseconds", async () => {
    const { call } = await setup();
    const body = await call("createNotification", { body: simple({ broadcast: true, send_at: 1894698000 }) });
    expect(body.result.send_at).toBe("2030-01-15T09:00:00.000Z");
  });

  it("accepts send_at up to 60 s in the past and refuses it beyond", async () => {
    const { call } = await setup();
    await expect(call("createNotification", { body: simple({ broadcast: true, send_at: nowSeconds - 60 }) })).resolves.toBeDefined();
    const problem = await problemOf(() => call("createNotification", { body: simple({ broadcast: true, send_at: nowSeconds - 61 }) }), "validation_failed");
    expect(offending(problem)).toEqual(["/send_at"]);
  });

  it("answers receivers and groups as submitted ([] for a broadcast or groups only)", async () => {
    const { call } = await setup();
    expect((await call("createNotification", { body: simple({ groups: [7] }) })).result.receivers).toEqual([]);
    expect((await call("createNotification", { body: simple({ broadcast: true }) })).result.receivers).toEqual([]);
    const receivers = ["TOMAS.REYES@acme-shop.example", "usr_7d2e9a4c1b6f"];
    expect((await call("createNotification", { body: simple({ receivers }) })).result.receivers).toEqual(receivers);
  });

  it("refuses each receiver that is unknown, of another application, or given by a wrong-case id", async () => {
    const { call, store } = await setup();
    const receivers = ["usr_7d2e9a4c1b6f", "nobody@acme-shop.example", "usr_4e8a1c6f2d9b", "lena.fischer@globex.example", "USR_7D2E9A4C1B6F"];
    const problem = await problemOf(() => call("createNotification", { body: simple({ receivers }) }), "validation_failed");
    expect(offending(problem)).toEqual(["/receivers/1", "/receivers/2", "/receivers/3", "/receivers/4"]);
    expect(problem.errors![0]!.message).toContain("nobody@acme-shop.example");
    expect(await store.notifications(callerA.applicationId)).toEqual([]);
  });

  it("refuses a user who has never logged in (no APPROVED AUTHENTICATION activity)", async () => {
    const seed = seedWith((s) => {
      const app = s.applications[0]!;
      app.users.push({ id: "usr_5f5f5f5f5f5f", email: "new.user@acme-shop.example", groups: [] });
      app.activities.push({ ...app.activities[0]!, id: "act_denied00001", account_id: "usr_5f5f5f5f5f5f", status: "DENIED" });
      app.activities.push({ ...app.activities[0]!, id: "act_other000001", account_id: "usr_5f5f5f5f5f5f", type: "PASSWORD_RESET" });
    });
    const { call } = await setup(seed);
    const problem = await problemOf(
      () => call("createNotification", { body: simple({ receivers: ["usr_5f5f5f5f5f5f", "new.user@acme-shop.example"] }) }),
      "validation_failed",
    );
    expect(offending(problem)).toEqual(["/receivers/0", "/receivers/1"]);
  });

  it("refuses unknown groups, naming each, together with other violations", async () => {
    const { call } = await setup();
    const problem = await problemOf(
      () => call("createNotification", { body: simple({ receivers: ["ghost@acme-shop.example"], groups: [7, 42, 8], send_at: 1 }) }),
      "validation_failed",
    );
    expect(offending(problem)).toEqual(["/receivers/0", "/groups/1", "/groups/2", "/send_at"]);
  });

  it("does not accept another application's group", async () => {
    const { call } = await setup();
    // Group 3 exists only in application A.
    await problemOf(
      () => call("createNotification", { body: simple({ groups: [3] }), caller: { applicationId: demo.b.applicationId, organizationId: demo.b.organizationId } }),
      "validation_failed",
    );
  });

  it("keeps one spelling of receivers that differ only in letter case, the first", async () => {
    const { call } = await setup();
    const receivers = ["maria.lopez@acme-shop.example", "MARIA.LOPEZ@acme-shop.example", "Maria.Lopez@Acme-Shop.example", "usr_1c5e8a3d7f2b"];
    const body = await call("createNotification", { body: simple({ receivers }) });
    expect(body.result.receivers).toEqual(["maria.lopez@acme-shop.example", "usr_1c5e8a3d7f2b"]);
  });

  it(`keeps the ${notificationsKept} latest notifications per application, dropping the oldest`, { timeout: 180_000 }, async () => {
    const { call, store } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < notificationsKept + 5; i++) ids.push((await call("createNotification", { body: simple({ broadcast: true }) })).result.id);
    const kept = (await store.notifications(callerA.applicationId)).map((n) => n.id);
    expect(kept).toEqual(ids.slice(5));
    expect(await store.notifications(demo.b.applicationId)).toEqual([]);
  });
});
