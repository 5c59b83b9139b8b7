// The e-mail transport's provider access information (`auth`) is encrypted at rest with
// AES-256-GCM and only ever leaves the store as an opaque token. The key comes from
// EMAIL_AUTH_KEY (64 hex characters); without it a random key is made per process, so
// tokens do not survive a restart (fine for an in-memory reference server).
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const keyEnv = "EMAIL_AUTH_KEY";
const tokenPrefix = "enc:v1:";

export type KeySource = "environment" | "random";

function readKey(): { key: Buffer; source: KeySource } {
  const hex = process.env[keyEnv];
  if (hex === undefined || hex === "") return { key: randomBytes(32), source: "random" };
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${keyEnv} must be 64 hex characters (a 256-bit key)`);
  return { key: Buffer.from(hex, "hex"), source: "environment" };
}

let current: { key: Buffer; source: KeySource } | undefined;
function key(): Buffer {
  current ??= readKey();
  return current.key;
}

/** Where the e-mail auth key of this process comes from (for the start-up log line). */
export function describeKeySource(): KeySource {
  key();
  return current!.source;
}

/** Encrypts a JSON value into `enc:v1:<iv>.<ciphertext>.<tag>` (base64url parts). */
export function sealAuth(value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return tokenPrefix + [iv, body, tag].map((part) => part.toString("base64url")).join(".");
}

/** Decrypts a token made by `sealAuth` with this process's key; throws if it was tampered with. */
export function openAuth(token: string): unknown {
  if (!token.startsWith(tokenPrefix)) throw new Error("not an e-mail auth token");
  const [iv, body, tag] = token.slice(tokenPrefix.length).split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !body || !tag) throw new Error("malformed e-mail auth token");
  const decipher = createDecipheriv("aes-256-gcm", key(), iv);
  decipher.setAuthTag(tag);
  return JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8"));
}
