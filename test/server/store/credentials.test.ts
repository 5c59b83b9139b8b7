// Credentials: keys and secrets are kept as SHA-256 digests only, a key authenticates its
// own application, and the key pair needs both halves of the same application.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Hex } from "../../../server/crypto/hash.js";
import { createStore } from "../../../server/store/index.js";
import { callerA, callerB, seedWith, setup } from "../operations/harness.js";
import { demo } from "../../support/demo.js";

describe("authenticate", () => {
  const { store } = setup();

  it("a bearer key identifies its application", async () => {
    expect(await store.authenticateBearer(demo.a.apiKey)).toEqual(callerA);
    expect(await store.authenticateBearer(demo.b.apiKey)).toEqual(callerB);
  });

  it.each([
    ["an unknown key", "ak_live_unknown_0000000000000000"],
    ["the secret used as a key", demo.a.apiSecret],
    ["a key with a different case", demo.a.apiKey.toUpperCase()],
    ["an empty key", ""],
  ])("refuses %s", async (_name, key) => {
    expect(await store.authenticateBearer(key)).toBeUndefined();
  });

  it("a key pair needs the key and the secret of the same application", async () => {
    expect(await store.authenticateKeyPair(demo.a.apiKey, demo.a.apiSecret)).toEqual(callerA);
    expect(await store.authenticateKeyPair(demo.b.apiKey, demo.b.apiSecret)).toEqual(callerB);
    expect(await store.authenticateKeyPair(demo.a.apiKey, demo.b.apiSecret)).toBeUndefined();
    expect(await store.authenticateKeyPair(demo.a.apiKey, "")).toBeUndefined();
    expect(await store.authenticateKeyPair("unknown", demo.a.apiSecret)).toBeUndefined();
  });

  it("the caller it answers cannot be changed by its receiver", async () => {
    const caller = (await store.authenticateBearer(demo.a.apiKey))!;
    expect(() => Object.assign(caller, { applicationId: demo.b.applicationId })).toThrow();
  });

  it("accepts credentials given in the seed as SHA-256 digests", async () => {
    const seed = seedWith((s) => {
      s.applications[0]!.credentials = [{ api_key_sha256: sha256Hex("ak_hashed_only_key_01"), api_secret_sha256: sha256Hex("as_hashed_only_secret_01") }];
    });
    const hashed = createStore(seed);
    expect(await hashed.authenticateKeyPair("ak_hashed_only_key_01", "as_hashed_only_secret_01")).toEqual(callerA);
    expect(await hashed.authenticateBearer(demo.a.apiKey)).toBeUndefined();
  });

});

describe("no clear copy", () => {
  it("a live store's heap holds no clear key, secret or e-mail auth", () => {
    const dir = mkdtempSync(join(tmpdir(), "heap-"));
    const snapshot = join(dir, "store.heapsnapshot");
    const probe = fileURLToPath(new URL("./heap-probe.ts", import.meta.url));
    const output = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", probe, snapshot], { encoding: "utf8" });
    const { hex, held } = JSON.parse(output.trim().split("\n").pop()!) as { hex: string[]; held: number };
    expect(held).toBe(2);
    const heap = readFileSync(snapshot, "utf8");
    expect(heap).toContain(demo.a.applicationId); // the snapshot does hold the store's strings
    for (const value of hex) expect(heap).not.toContain(value);
    rmSync(dir, { recursive: true });
  }, 60_000);
});
