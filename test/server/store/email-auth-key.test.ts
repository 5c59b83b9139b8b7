// The e-mail auth key: EMAIL_AUTH_KEY (64 hex) when set, else a random key per process;
// tokens are AES-256-GCM, so a token from another key or a tampered token does not open.
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
  it("uses EMAIL_AUTH_KEY when set: tokens open in another process with the same key", async () => {
    vi.stubEnv("EMAIL_AUTH_KEY", keyHex);
    const first = await fresh();
    expect(first.describeKeySource()).toBe("environment");
    const token = first.sealAuth({ api_key: "SG.secret" });
    const second = await fresh();
    expect(second.openAuth(token)).toEqual({ api_key: "SG.secret" });
  });

  it("uses a random key per process when EMAIL_AUTH_KEY is unset", async () => {
    vi.stubEnv("EMAIL_AUTH_KEY", "");
    const first = await fresh();
    expect(first.describeKeySource()).toBe("random");
    const token = first.sealAuth({ api_key: "SG.secret" });
    const second = await fresh();
    expect(() => second.openAuth(token)).toThrow();
  });

  it("refuses a key that is not 64 hex characters", async () => {
    vi.stubEnv("EMAIL_AUTH_KEY", "not-a-key");
    const module = await fresh();
    expect(() => module.describeKeySource()).toThrow(/64 hex/);
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
