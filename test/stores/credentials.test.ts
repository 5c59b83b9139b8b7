// Credentials on every store (test/support/stores.ts): a key authenticates its own
// application, the key pair needs both halves of the same application, the caller answered
// is frozen, and a seed may give credentials as SHA-256 digests only. What each store keeps
// at rest: test/stores/memory/credentials.test.ts (heap) and test/stores/postgres/store.test.ts (tables).
import { expect, it } from "vitest";
import { sha256Hex } from "../../server/crypto/hash.js";
import { loadSeed } from "../../server/seed/load.js";
import type { Store } from "../../server/domain/index.js";
import { callerA, callerB, seedWith } from "../server/operations/harness.js";
import { demo } from "../support/demo.js";
import { forEachStore } from "../support/stores.js";

const demoSeed = loadSeed();

forEachStore("authenticate", (stores) => {
  let store: Store;
  const demoStore = async () => (store = await stores.fresh(demoSeed));

  it("a bearer key identifies its application", async () => {
    await demoStore();
    expect(await store.authenticateBearer(demo.a.apiKey)).toEqual(callerA);
    expect(await store.authenticateBearer(demo.b.apiKey)).toEqual(callerB);
  });

  it.each([
    ["an unknown key", "ak_live_unknown_0000000000000000"],
    ["the secret used as a key", demo.a.apiSecret],
    ["a key with a different case", demo.a.apiKey.toUpperCase()],
    ["an empty key", ""],
  ])("refuses %s", async (_name, key) => {
    await demoStore();
    expect(await store.authenticateBearer(key)).toBeUndefined();
  });

  it("a key pair needs the key and the secret of the same application", async () => {
    await demoStore();
    expect(await store.authenticateKeyPair(demo.a.apiKey, demo.a.apiSecret)).toEqual(callerA);
    expect(await store.authenticateKeyPair(demo.b.apiKey, demo.b.apiSecret)).toEqual(callerB);
    expect(await store.authenticateKeyPair(demo.a.apiKey, demo.b.apiSecret)).toBeUndefined();
    expect(await store.authenticateKeyPair(demo.a.apiKey, "")).toBeUndefined();
    expect(await store.authenticateKeyPair("unknown", demo.a.apiSecret)).toBeUndefined();
  });

  it("the caller it answers cannot be changed by its receiver", async () => {
    await demoStore();
    const caller = (await store.authenticateBearer(demo.a.apiKey))!;
    expect(() => Object.assign(caller, { applicationId: demo.b.applicationId })).toThrow();
  });

  it("accepts credentials given in the seed as SHA-256 digests", async () => {
    const seed = seedWith((s) => {
      s.applications[0]!.credentials = [{ api_key_sha256: sha256Hex("ak_hashed_only_key_01"), api_secret_sha256: sha256Hex("as_hashed_only_secret_01") }];
    });
    const hashed = await stores.fresh(seed);
    expect(await hashed.authenticateKeyPair("ak_hashed_only_key_01", "as_hashed_only_secret_01")).toEqual(callerA);
    expect(await hashed.authenticateBearer(demo.a.apiKey)).toBeUndefined();
  });

  it("lists the applications it holds", async () => {
    await demoStore();
    const listed = (await store.applications()).sort((a, b) => a.id.localeCompare(b.id));
    expect(listed).toEqual(demoSeed.applications.map((a) => ({ id: a.id, organizationId: a.organization_id, name: a.name })).sort((a, b) => a.id.localeCompare(b.id)));
  });
});
