// Loads a seed (checked by loadSeed) into the database, replacing what it held: one
// transaction, one INSERT … SELECT over a JSON array per table and application (written as
// json-text.ts stores strings, so `->>` reads every record), reports by
// COPY. Credentials go in as SHA-256 digests and the e-mail auth sealed, as in memory, and
// the fingerprint of the sealing key is recorded (server/store/postgres/email-key.ts).
import type { Pool } from "pg";
import { sealAuth } from "../../crypto/email-auth.js";
import { sha256 } from "../../crypto/hash.js";
import { storedAuth, transportRecord } from "../../rules/email-transport.js";
import type { Seed, SeedCredential } from "../../seed/types.js";
import { recordEmailAuthKey } from "./email-key.js";
import { storedJson } from "./json-text.js";
import { copyReports } from "./reports.js";

const tables = [
  "credentials",
  "notifications",
  "webhook_history",
  "webhooks",
  "email_transports",
  "sms_providers",
  "report_day_counts",
  "report_groups",
  "encryption_reports",
  "activities",
  "widgets",
  "users",
  "applications",
];

function digest(clear: string | undefined, hex: string | undefined): Buffer {
  return clear !== undefined ? sha256(clear) : Buffer.from(hex!, "hex");
}

export async function seedDatabase(pool: Pool, seed: Seed): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL statement_timeout = 0");
    await client.query(`TRUNCATE ${tables.join(", ")}`);
    for (const app of seed.applications) {
      const id = app.id;
      await client.query("INSERT INTO applications (id, organization_id, name) VALUES ($1, $2, $3)", [id, app.organization_id, app.name]);
      for (const credential of app.credentials) {
        const c = credential as Partial<Record<"api_key" | "api_key_sha256" | "api_secret" | "api_secret_sha256", string>> & SeedCredential;
        await client.query("INSERT INTO credentials (key_digest, secret_digest, application_id) VALUES ($1, $2, $3)", [
          digest(c.api_key, c.api_key_sha256),
          digest(c.api_secret, c.api_secret_sha256),
          id,
        ]);
      }
      const receivers = new Set(app.activities.filter((a) => a.type === "AUTHENTICATION" && a.status === "APPROVED").map((a) => a.account_id));
      await client.query(
        `INSERT INTO users (application_id, id, email_lower, groups, can_receive)
         SELECT $1, u->>'id', lower(u->>'email'), ARRAY(SELECT json_array_elements_text(u->'groups')::bigint), (u->>'id') = ANY($3)
         FROM json_array_elements($2::json) u`,
        [id, storedJson(app.users), [...receivers]],
      );
      await client.query("INSERT INTO widgets (application_id, id, body) SELECT $1, w->>'id', w FROM json_array_elements($2::json) w", [id, storedJson(app.widgets)]);
      await client.query(
        "INSERT INTO activities (application_id, user_id, id, created_at, body) SELECT $1, a->>'account_id', a->>'id', (a->>'created_at')::timestamptz, a FROM json_array_elements($2::json) a",
        [id, storedJson(app.activities)],
      );
      await client.query(
        "INSERT INTO sms_providers (application_id, id, sort, is_default, body) SELECT $1, p->>'id', (p->>'sort')::int, (p->>'is_default')::boolean, p FROM json_array_elements($2::json) p",
        [id, storedJson(app.sms_providers)],
      );
      if (app.email_transport !== null) {
        const record = transportRecord(app.email_transport, storedAuth(app.email_transport.auth, sealAuth), { applicationId: id, organizationId: app.organization_id });
        await client.query("INSERT INTO email_transports (application_id, body) VALUES ($1, $2)", [id, storedJson(record)]);
      }
      await client.query(
        "INSERT INTO webhooks (application_id, id, created_at, body) SELECT $1, w->>'id', (w->>'created_at')::timestamptz, w FROM json_array_elements($2::json) w",
        [id, storedJson(app.webhooks)],
      );
      await client.query(
        "INSERT INTO webhook_history (application_id, webhook_id, id, created_at, body) SELECT $1, h->>'webhook_id', h->>'id', (h->>'created_at')::timestamptz, h FROM json_array_elements($2::json) h",
        [id, storedJson(app.webhook_history)],
      );
      await copyReports(client, id, app.encryption_reports);
    }
    // Every transport is now sealed with this process's key: the database's key from now on.
    await recordEmailAuthKey(client);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
