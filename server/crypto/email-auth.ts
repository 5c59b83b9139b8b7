// The e-mail transport's provider access information (`auth`) is encrypted at rest with
// AES-256-GCM and only ever leaves the store as an opaque token. The key is EMAIL_AUTH_KEY
// (64 hex characters), which each entry point reads with its configuration (server/config.ts)
// and hands to useEmailAuthKey: this module reads no environment. Until one does, and without
// one, a random key is made per process, so tokens do not survive a restart (fine for the
// in-memory reference server; with a database every process must share one key:
// server/store/postgres/email-key.ts).
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

export const emailAuthKeyEnv = "EMAIL_AUTH_KEY";
const tokenPrefix = "enc:v1:";

/** How to make a key, for messages that ask for one. */
export const makeKeyHint = `make one with: node -p "require('crypto').randomBytes(32).toString('hex')"`;

export type KeySource = "environment" | "random";

/** A key given as 64 hex characters, or an Error naming `name`. */
export function parseKey(hex: string, name = emailAuthKeyEnv): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${name} must be 64 hex characters (a 256-bit key): ${makeKeyHint}`);
  return Buffer.from(hex, "hex");
}

function keyOf(hex: string | undefined): { key: Buffer; source: KeySource } {
  if (hex === undefined || hex === "") return { key: randomBytes(32), source: "random" };
  return { key: parseKey(hex), source: "environment" };
}

let current: { key: Buffer; source: KeySource } | undefined;
function key(): Buffer {
  current ??= keyOf(undefined);
  return current.key;
}

/** Makes `hex` (EMAIL_AUTH_KEY's 64 hex characters; undefined: a random key) this process's key; throws for a malformed one. */
export function useEmailAuthKey(hex: string | undefined): KeySource {
  current = keyOf(hex);
  return current.source;
}

/** Where the e-mail auth key of this process comes from (for the start-up log line). */
export function describeKeySource(): KeySource {
  key();
  return current!.source;
}

/**
 * A keyed fingerprint of a key: HMAC-SHA-256 under the key of a fixed label. Stored beside
 * the sealed data, it tells whether a key is the one they were sealed with, and reveals
 * nothing of the key itself.
 */
export function keyFingerprint(of: Buffer = key()): string {
  return createHmac("sha256", of).update("authsvc e-mail auth key check v1").digest("hex");
}

/** Encrypts a JSON value into `enc:v1:<iv>.<ciphertext>.<tag>` (base64url parts), with `withKey` or this process's key. */
export function sealAuth(value: unknown, withKey: Buffer = key()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", withKey, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return tokenPrefix + [iv, body, tag].map((part) => part.toString("base64url")).join(".");
}

/** Decrypts a token made by `sealAuth` with `withKey` or this process's key; throws if it was tampered with or sealed with another key. */
export function openAuth(token: string, withKey: Buffer = key()): unknown {
  if (!token.startsWith(tokenPrefix)) throw new Error("not an e-mail auth token");
  const [iv, body, tag] = token
    .slice(tokenPrefix.length)
    .split(".")
    .map((part) => Buffer.from(part, "base64url"));
  if (!iv || !body || !tag) throw new Error("malformed e-mail auth token");
  const decipher = createDecipheriv("aes-256-gcm", withKey, iv);
  decipher.setAuthTag(tag);
  return JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8"));
}
