// API keys and secrets, kept only as SHA-256 digests. A key is found by its digest and then
// confirmed, with its secret, by constant-time comparison; no clear copy is kept.
import type { Caller } from "../domain/index.js";
import { sameDigest, sha256 } from "../crypto/hash.js";
import type { SeedCredential } from "../seed/types.js";

interface Entry {
  keyDigest: Buffer;
  secretDigest: Buffer;
  caller: Caller;
}

function digestOf(clear: string | undefined, hex: string | undefined): Buffer {
  return clear !== undefined ? sha256(clear) : Buffer.from(hex!, "hex");
}

export class CredentialTable {
  readonly #byKey = new Map<string, Entry>();

  add(credential: SeedCredential, caller: Caller): void {
    const c = credential as Partial<Record<"api_key" | "api_key_sha256" | "api_secret" | "api_secret_sha256", string>>;
    const keyDigest = digestOf(c.api_key, c.api_key_sha256);
    const hex = keyDigest.toString("hex");
    if (this.#byKey.has(hex)) throw new Error(`seed: the same API key is given twice (application ${caller.applicationId})`);
    this.#byKey.set(hex, { keyDigest, secretDigest: digestOf(c.api_secret, c.api_secret_sha256), caller: Object.freeze({ ...caller }) });
  }

  #entry(apiKey: string): Entry | undefined {
    const digest = sha256(apiKey);
    const entry = this.#byKey.get(digest.toString("hex"));
    return entry !== undefined && sameDigest(entry.keyDigest, digest) ? entry : undefined;
  }

  /** The application of a bearer API key. */
  bearer(apiKey: string): Caller | undefined {
    return this.#entry(apiKey)?.caller;
  }

  /** The application of an API key and secret pair (both must match). */
  keyPair(apiKey: string, apiSecret: string): Caller | undefined {
    const entry = this.#entry(apiKey);
    // Compare the secret even when the key is unknown, so both paths take the same time.
    const secretOk = sameDigest(entry?.secretDigest ?? sha256(""), sha256(apiSecret));
    return entry !== undefined && secretOk ? entry.caller : undefined;
  }
}
