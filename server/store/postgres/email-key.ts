// One e-mail auth key per database. Every process serving a database, and db:seed, must seal
// and open the e-mail transports' `auth` with the same EMAIL_AUTH_KEY: with different keys
// each breaks the others' saves (the token does not open). So a database keeps a keyed
// fingerprint of its key (never the key), every start compares its own key with it and
// refuses on a mismatch, and rotation re-seals every stored transport and the fingerprint
// in one transaction (`npm run db:rotate-email-key`, docs/postgres.md).
import type pg from "pg";
import { describeKeySource, emailAuthKeyEnv, keyFingerprint, makeKeyHint, openAuth, sealAuth } from "../../crypto/email-auth.js";

type Db = pg.Pool | pg.PoolClient;

const read = `SELECT fingerprint FROM email_auth_key_check`;
const claim = `INSERT INTO email_auth_key_check (fingerprint) VALUES ($1) ON CONFLICT (singleton) DO NOTHING`;
const replace = `INSERT INTO email_auth_key_check (fingerprint) VALUES ($1) ON CONFLICT (singleton) DO UPDATE SET fingerprint = excluded.fingerprint, set_at = now()`;
const anyToken = `SELECT body->>'auth' AS token FROM email_transports LIMIT 1`;

/** Throws the one-line reason when EMAIL_AUTH_KEY is not set (a random key would diverge from every other process). */
export function requireSharedKey(): void {
  if (describeKeySource() !== "environment") {
    throw new Error(`${emailAuthKeyEnv} is not set; with DATABASE_URL every process and db:seed must use the same key: ${makeKeyHint}, and set it everywhere`);
  }
}

const mismatch = (where: string) =>
  new Error(`${emailAuthKeyEnv} is not the key the e-mail transports at ${where} were sealed with; set that key, or re-seal them with npm run db:rotate-email-key`);

const opens = (token: string, key?: Buffer) => {
  try {
    openAuth(token, key);
    return true;
  } catch {
    return false;
  }
};

/**
 * Compares this process's key with the database's fingerprint; a database without one
 * (empty, or loaded before fingerprints were kept) takes this key's, once a stored token
 * opens with it. Two processes claiming at once: one fingerprint wins, the other is refused.
 */
export async function checkEmailAuthKey(db: Db, where: string): Promise<void> {
  requireSharedKey();
  let stored = (await db.query<{ fingerprint: string }>(read)).rows[0]?.fingerprint;
  if (stored === undefined) {
    const token = (await db.query<{ token: string | null }>(anyToken)).rows[0]?.token;
    if (token && !opens(token)) throw mismatch(where);
    await db.query(claim, [keyFingerprint()]);
    stored = (await db.query<{ fingerprint: string }>(read)).rows[0]?.fingerprint;
  }
  if (stored !== keyFingerprint()) throw mismatch(where);
}

/** Records this process's key as the database's (db:seed, inside its transaction, after it sealed every transport with it). */
export async function recordEmailAuthKey(db: Db): Promise<void> {
  await db.query(replace, [keyFingerprint()]);
}

/**
 * Re-seals every stored transport's `auth` from `oldKey` to `newKey` and records the new
 * fingerprint, in one transaction: either every token opens with the new key, or nothing
 * changed. Refused when `oldKey` is not the database's key. Returns how many were re-sealed.
 */
export async function rotateEmailAuthKey(pool: pg.Pool, oldKey: Buffer, newKey: Buffer, where: string): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    // Locks the fingerprint first, so two rotations run one after the other.
    const stored = (await client.query<{ fingerprint: string }>(`${read} FOR UPDATE`)).rows[0]?.fingerprint;
    if (stored !== undefined && stored !== keyFingerprint(oldKey)) {
      throw new Error(`OLD_${emailAuthKeyEnv} is not the key of the data at ${where}; nothing was changed`);
    }
    const rows = (
      await client.query<{ application_id: string; token: string }>(
        `SELECT application_id, body->>'auth' AS token FROM email_transports ORDER BY application_id FOR UPDATE`,
      )
    ).rows;
    for (const row of rows) {
      if (!opens(row.token, oldKey)) throw new Error(`the e-mail transport of ${row.application_id} does not open with OLD_${emailAuthKeyEnv}; nothing was changed`);
      const token = sealAuth(openAuth(row.token, oldKey), newKey);
      await client.query(`UPDATE email_transports SET body = jsonb_set(body, '{auth}', to_jsonb($2::text)) WHERE application_id = $1`, [row.application_id, token]);
    }
    await client.query(replace, [keyFingerprint(newKey)]);
    await client.query("COMMIT");
    return rows.length;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
