// Credentials are kept only as SHA-256 digests and compared in constant time, so neither a
// memory dump nor response timing gives a key or secret away.
import { createHash, timingSafeEqual } from "node:crypto";

/** SHA-256 digest of a credential. */
export function sha256(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** SHA-256 digest of a credential as lower-case hex (the form a seed may carry). */
export function sha256Hex(value: string): string {
  return sha256(value).toString("hex");
}

/** Constant-time equality of two digests (both 32 bytes, so no length leak). */
export function sameDigest(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
