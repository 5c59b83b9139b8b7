// The e-mail auth key: the one the entry point hands over (EMAIL_AUTH_KEY, 64 hex), else a
// random key per process; tokens are AES-256-GCM, so a token from another key or a tampered
// token does not open. The module reads no environment: the entry point's configuration does.
import { afterEach, describe, expect, it, vi } from "vitest";

const keyHex = "a".repeat(64);
const fresh = async () => {
  vi.resetModules();
  return import("../../../server/crypto/email-auth.js");
};

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("e-mail auth encryption", () => {
  it("uses the key it is given: tokens open in another process given the same key", async () => {
    const first = await fresh();
    expect(first.useEmailAuthKey(keyHex)).toBe("environment");
    expect(first.describeKeySource()).toBe("environment");
    const token = first.sealAuth({ api_key: "SG.secret" });
    const second = await fresh();
    second.useEmailAuthKey(keyHex);
    expect(second.openAuth(token)).toEqual({ api_key: "SG.secret" });
  });

  it("uses a random key per process when given none, whatever the environment holds", async () => {
    vi.stubEnv("EMAIL_AUTH_KEY", keyHex);
    const first = await fresh();
    expect(first.describeKeySource()).toBe("random");
    const token = first.sealAuth({ api_key: "SG.secret" });
    const second = await fresh();
    second.useEmailAuthKey(keyHex);
    expect(() => second.openAuth(token)).toThrow();
    const third = await fresh();
    expect(third.useEmailAuthKey(undefined)).toBe("random");
  });

  it("refuses a key that is not 64 hex characters", async () => {
    const module = await fresh();
    expect(() => module.useEmailAuthKey("not-a-key")).toThrow(/EMAIL_AUTH_KEY must be 64 hex/);
  });

  it("makes a new token each time and detects tampering", async () => {
    const { sealAuth, openAuth } = await fresh();
    const a = sealAuth({ api_key: "SG.secret" });
    expect(sealAuth({ api_key: "SG.secret" })).not.toBe(a);
    expect(a).not.toContain("SG.secret");
    const [iv, body, tag] = a.slice("enc:v1:".length).split(".");
    const flipped = body!.startsWith("A") ? `B${body!.slice(1)}` : `A${body!.slice(1)}`;
    expect(() => openAuth(`enc:v1:${iv}.${flipped}.${tag}`)).toThrow();
  });
});
