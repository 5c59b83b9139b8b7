// The pure rules of server/rules/ called directly, for what the store and handler suites
// reach only through whole requests: IP canonical forms, the report date bounds and their
// 400, the list order's tie-break, the detail of each refusal.
import { describe, expect, it } from "vitest";
import { normalizeIp } from "../../server/rules/ip.js";
import { newestFirst, sortNewestFirst } from "../../server/rules/order.js";
import { reportDateBounds } from "../../server/rules/report-dates.js";
import { createNotification, distinctReceivers, resolveSendAt } from "../../server/rules/notifications.js";
import { saveTransport, transportRecord, type SaveContext } from "../../server/rules/email-transport.js";
import type { EmailSettingsSave, NotificationCreate } from "../../server/domain/index.js";
import { pageStart } from "../../server/rules/paging.js";
import { updateProvider } from "../../server/rules/sms-providers.js";
import { ApiProblem } from "../../server/problems.js";
import { seedWithProviders } from "../server/operations/harness.js";

/** The ApiProblem `action` throws; anything else thrown, or nothing, fails the test. */
function refusal(action: () => unknown): ApiProblem {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiProblem) return error;
    throw error;
  }
  throw new Error("expected an ApiProblem");
}

describe("normalizeIp", () => {
  it.each([
    ["2001:0db8:0:0:0:0:0:7", "2001:db8::7"],
    ["2001:DB8::7", "2001:db8::7"],
    ["2001:db8::7", "2001:db8::7"],
    ["::FFFF:10.0.0.1", "::ffff:a00:1"],
  ])("%s is %s", (ip, canonical) => {
    expect(normalizeIp(ip)).toBe(canonical);
    // A second call (answered from the cache) gives the same.
    expect(normalizeIp(ip)).toBe(canonical);
  });

  it("keeps IPv4 as written and lower-cases a shape that is no address", () => {
    expect(normalizeIp("10.0.0.1")).toBe("10.0.0.1");
    expect(normalizeIp("Not:An:Address:G")).toBe("not:an:address:g");
  });
});

describe("reportDateBounds", () => {
  it("turns inclusive seconds into [from, until) milliseconds, open where a bound is absent", () => {
    expect(reportDateBounds(10, 20)).toEqual({ fromMs: 10_000, untilMs: 21_000 });
    expect(reportDateBounds(10, 10)).toEqual({ fromMs: 10_000, untilMs: 11_000 });
    expect(reportDateBounds(undefined, 20)).toEqual({ fromMs: -Infinity, untilMs: 21_000 });
    expect(reportDateBounds(10, undefined)).toEqual({ fromMs: 10_000, untilMs: Infinity });
    expect(reportDateBounds(undefined, undefined)).toEqual({ fromMs: -Infinity, untilMs: Infinity });
  });

  it("crossed bounds are a 400 naming both parameters", () => {
    let thrown: unknown;
    try {
      reportDateBounds(21, 20);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiProblem);
    const problem = thrown as ApiProblem;
    expect(problem.code).toBe("validation_failed");
    expect(problem.detail).toBe("start_date must not be after end_date.");
    const message = "start_date (21) is after end_date (20)";
    expect(problem.errors).toEqual([
      { in: "query", name: "start_date", message },
      { in: "query", name: "end_date", message },
    ]);
  });
});

describe("newestFirst", () => {
  const at = (id: string, created_at: string) => ({ id, created_at });
  it("orders newest first, ties by id ascending, equal records as equal", () => {
    const early = "2026-01-01T00:00:00.000Z";
    const late = "2026-01-02T00:00:00.000Z";
    expect(newestFirst(at("a", late), at("b", early))).toBe(-1);
    expect(newestFirst(at("b", early), at("a", late))).toBe(1);
    expect(newestFirst(at("a", early), at("b", early))).toBe(-1);
    expect(newestFirst(at("b", early), at("a", early))).toBe(1);
    expect(newestFirst(at("a", early), at("a", early))).toBe(0);
    expect(sortNewestFirst([at("c", early), at("b", late), at("a", early)]).map((r) => r.id)).toEqual(["b", "a", "c"]);
  });
});

describe("problems of the rules name what was refused", () => {
  it("an infinite paging value: 400 naming it", () => {
    const problem = refusal(() => pageStart({ limit: Infinity, page: 1 }));
    expect({ code: problem.code, detail: problem.detail, errors: problem.errors }).toEqual({
      code: "validation_failed",
      detail: "Paging values must be finite integers.",
      errors: [{ in: "query", name: "limit", message: "must be a finite integer" }],
    });
  });

  it("an unknown provider, and un-defaulting the default: 404 and 409 naming the provider", () => {
    const providers = seedWithProviders(2).applications[0]!.sms_providers;
    expect(refusal(() => updateProvider(providers, "sms_unknown", {})).detail).toBe("SMS provider sms_unknown was not found.");
    expect(refusal(() => updateProvider(providers, "sms_p1", { is_default: false })).detail).toBe(
      "SMS provider sms_p1 is the default; make another provider the default instead.",
    );
  });

  const owner = { organizationId: "org_1", applicationId: "app_1" };
  const ctx: SaveContext = { ...owner, now: new Date("2026-03-10T12:00:00.000Z"), newId: () => "eml_new", seal: () => "sealed", open: () => ({}) };
  const addresses = { email_from: "no-reply@acme.example", email_admin: "admin@acme.example" };
  const stored = transportRecord(
    {
      id: "eml_1",
      type: "SENDGRID",
      is_verified: true,
      ...addresses,
      email_reply: "",
      from_name: "",
      send_count: 3,
      fail_count: 1,
      created_at: "2026-01-01T00:00:00.000Z",
    },
    { token: "sealed-before", region: "" },
    owner,
  );

  it("an e-mail transport saved without auth, first or with another type: 400 on /auth in the body, saying which", () => {
    const before = structuredClone(stored);
    const first = refusal(() => saveTransport(undefined, { type: "SES", ...addresses } as EmailSettingsSave, ctx));
    const retyped = refusal(() => saveTransport(stored, { type: "SES", ...addresses } as EmailSettingsSave, ctx));
    expect([first, retyped].map(({ code, detail, errors }) => ({ code, detail, errors }))).toEqual([
      {
        code: "validation_failed",
        detail: "auth is required on the first save.",
        errors: [{ in: "body", pointer: "/auth", message: "required for the first save" }],
      },
      {
        code: "validation_failed",
        detail: "auth is required on a change of type from SENDGRID to SES.",
        errors: [{ in: "body", pointer: "/auth", message: "required for a change of type from SENDGRID to SES" }],
      },
    ]);
    expect(stored).toEqual(before);
  });

  it("a notification to unknown receivers and groups, in the past: 400 with one body error per offending value", () => {
    const now = new Date("2026-03-10T12:00:00.000Z");
    const audience = { canReceive: (receiver: string) => receiver === "known@acme.example", hasGroup: (group: number) => group === 1 };
    const request = {
      type: "SIMPLE",
      title: "Hello",
      content: "Hi",
      receivers: ["known@acme.example", "ghost@acme.example"],
      groups: [1, 99],
      send_at: now.getTime() / 1000 - 61,
    } as NotificationCreate;
    const before = structuredClone(request);
    const problem = refusal(() => createNotification(request, audience, now, "ntf_1"));
    expect({ code: problem.code, detail: problem.detail, errors: problem.errors }).toEqual({
      code: "validation_failed",
      detail: "The notification cannot be scheduled.",
      errors: [
        { in: "body", pointer: "/receivers/1", message: "ghost@acme.example is not a user of this application who has logged in" },
        { in: "body", pointer: "/groups/1", message: "group 99 does not exist" },
        { in: "body", pointer: "/send_at", message: "2026-03-10T11:58:59.000Z is more than 60 seconds in the past" },
      ],
    });
    expect(request).toEqual(before);
  });
});

describe("resolveSendAt", () => {
  it("now and absent are the clock's now; a number is Unix seconds", () => {
    const now = new Date("2026-03-10T12:00:00.000Z");
    expect(resolveSendAt("now", now)).toEqual(now);
    expect(resolveSendAt(undefined, now)).toEqual(now);
    expect(resolveSendAt(1_773_144_000, now)).toEqual(new Date(1_773_144_000_000));
  });
});

describe("distinctReceivers", () => {
  it("folds case as the stores match e-mails (lower case): straße and STRASSE are two users, Straße repeats the first", () => {
    // Upper-casing would fold both to STRASSE and drop a user the store tells apart.
    expect(distinctReceivers(["straße@acme.example", "STRASSE@acme.example", "Straße@ACME.example"])).toEqual(["straße@acme.example", "STRASSE@acme.example"]);
  });
});
