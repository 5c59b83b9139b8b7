// Seed loading: the demo seed is valid; an invalid seed stops with a message naming the bad
// path, for schema errors (from the document's components) and for broken relations.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSeed, loadSeed } from "../../../server/seed/load.js";
import type { Seed } from "../../../server/seed/types.js";
import { createStore } from "../../../server/store/memory.js";

const demo = loadSeed();
const broken = (change: (seed: any) => void) => () => {
  const seed = structuredClone(demo) as any;
  change(seed);
  return checkSeed(seed);
};

describe("loadSeed", () => {
  it("loads the demo seed by default: applications A and B", () => {
    expect(demo.applications.map((a) => [a.id, a.name])).toEqual([
      ["app_8c1f5e20d9b4", "Acme Shop"],
      ["app_1d9e7c42a6f0", "Globex"],
    ]);
  });

  it("loads a seed file given by path (what SEED_FILE does)", () => {
    const dir = mkdtempSync(join(tmpdir(), "seed-"));
    const file = join(dir, "seed.json");
    const minimal: Seed = { applications: [{ ...structuredClone(demo.applications[1]!) }] };
    writeFileSync(file, JSON.stringify(minimal));
    expect(loadSeed(file).applications.map((a) => a.id)).toEqual(["app_1d9e7c42a6f0"]);
  });

  it("loads the documented minimal custom seed, and its credentials authenticate", async () => {
    const readme = readFileSync(new URL("../../../docs/reference-server.md", import.meta.url), "utf8");
    const block = /A minimal custom seed[^\n]*\n+```json\n([\s\S]*?)```/.exec(readme);
    expect(block, "docs/reference-server.md: the minimal seed example").not.toBeNull();
    const store = createStore(checkSeed(JSON.parse(block![1]!)));
    expect((await store.authenticateKeyPair("ak_test_local_0001", "as_test_local_0001"))?.applicationId).toBe("app_local000001");
  });

  it("names the file when it is not JSON", () => {
    const dir = mkdtempSync(join(tmpdir(), "seed-"));
    const file = join(dir, "bad.json");
    writeFileSync(file, "{ not json");
    expect(() => loadSeed(file)).toThrow(file);
  });

  it.each([
    [
      "a timestamp without milliseconds",
      (s: any) => (s.applications[0].widgets[0].created_at = "2026-01-31T09:15:00Z"),
      "seed /applications/0/widgets/0/created_at: must match pattern",
    ],
    [
      "a date that is no date-time",
      (s: any) => (s.applications[0].widgets[0].created_at = "2026-01-31 09:15"),
      'seed /applications/0/widgets/0/created_at: must match format "date-time"',
    ],
    ["an unknown field", (s: any) => (s.applications[0].webhooks[1].secret = "x"), "seed /applications/0/webhooks/1: must NOT have additional properties (secret)"],
    ["a bad IP", (s: any) => (s.applications[0].encryption_reports[0].ip_source = "300.1.1.1"), "seed /applications/0/encryption_reports/0/ip_source"],
    [
      "SES auth on a SENDGRID transport",
      (s: any) => (s.applications[0].email_transport.auth = { region: "eu-west-1", accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "x" }),
      "seed /applications/0/email_transport/auth: must have required property 'api_key'",
    ],
    ["a credential without secret", (s: any) => delete s.applications[1].credentials[0].api_secret, "seed /applications/1/credentials/0"],
    [
      "a record of another application",
      (s: any) => (s.applications[1].widgets[0].application_id = "app_8c1f5e20d9b4"),
      "seed /applications/1/widgets/0/application_id: must be app_1d9e7c42a6f0",
    ],
    ["a duplicate id", (s: any) => (s.applications[1].webhooks[0].id = "whk_3a7f1c9e5b2d"), "seed /applications/1/webhooks/0/id: id whk_3a7f1c9e5b2d is already used"],
    ["a gap in provider positions", (s: any) => (s.applications[0].sms_providers[1].sort = 3), "seed /applications/0/sms_providers: sort values must be 1..n"],
    [
      "two default providers",
      (s: any) => (s.applications[0].sms_providers[1].is_default = true),
      "seed /applications/0/sms_providers: exactly one provider must be the default",
    ],
    ["activity of an unknown user", (s: any) => (s.applications[0].activities[0].account_id = "usr_unknown"), "seed /applications/0/activities/0/account_id"],
    [
      "history of another application's webhook",
      (s: any) => (s.applications[1].webhook_history[0].webhook_id = "whk_3a7f1c9e5b2d"),
      "seed /applications/1/webhook_history/0/webhook_id",
    ],
  ])("refuses %s, naming the path", (_name, change, message) => {
    expect(broken(change)).toThrow(message);
  });
});
