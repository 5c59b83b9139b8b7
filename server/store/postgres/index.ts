// The store on PostgreSQL: the same rules and problems as the in-memory store (the pure
// functions of server/rules), every statement scoped by the caller's application, and the
// read-modify-write operations inside one transaction that locks what they change, so
// several processes on one database keep every guarantee of the single process.
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Caller, EmailTransport, EncryptionReport, Notification, Page, Paging, SmsProvider, Store as AsyncStore, Webhook, Widget } from "../../domain/index.js";
import { openAuth, sealAuth } from "../../crypto/email-auth.js";
import { sameDigest, sha256 } from "../../crypto/hash.js";
import { notFound } from "../../problems.js";
import { saveTransport } from "../../rules/email-transport.js";
import { createNotification, notificationsKept } from "../../rules/notifications.js";
import { pageMeta, pageStart } from "../../rules/paging.js";
import { reportDateBounds } from "../../rules/report-dates.js";
import { updateProvider } from "../../rules/sms-providers.js";
import { CredentialPrefetch, type CredentialRow } from "./credential-prefetch.js";
import { lanes } from "./lanes.js";
import { copyReports, reportPageAndCount } from "./reports.js";
import { sql, unscoped } from "./sql.js";
import { fromStored, storedJson } from "./json-text.js";
import { withUnavailable } from "./unavailable.js";

export type { Store as AsyncStore } from "../../domain/index.js";

export interface PostgresStoreOptions {
  connectionString: string;
  /** Connections in the pool (10). */
  max?: number;
  /** How long a request waits for a free connection before failing (5000 ms). */
  connectionTimeoutMillis?: number;
  /**
   * The longest one statement of a request may run (ms, default 2000; 0 for none): past it the
   * database cancels it and the request is a 503, so no tenant holds a connection for long.
   * Bulk loads and migrations lift it for their own transaction.
   */
  statementTimeoutMs?: number;
  /** From this many reports in one load, the report indexes are dropped and built again after COPY (50 000). */
  rebuildIndexesFrom?: number;
}

export interface PostgresStore extends AsyncStore {
  readonly pool: pg.Pool;
  /** Credential rows read by the per-key limiter's hit, for the credential check (one round trip). */
  readonly credentialPrefetch: CredentialPrefetch;
  close(): Promise<void>;
}

// Bodies are written with storedJson and read with fromStored (json-text.ts), so every string
// the document accepts round-trips, U+0000 and lone surrogates included.
const bodies = <T>(result: pg.QueryResult<{ body: T }>): T[] => result.rows.map((row) => fromStored(row.body));
const firstBody = <T>(result: pg.QueryResult<{ body: T }>): T | undefined => (result.rows[0] === undefined ? undefined : fromStored(result.rows[0].body));

export function createPostgresStore(options: PostgresStoreOptions): PostgresStore {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5_000,
    // Sent at connection start-up: every statement on the pool's connections is bounded.
    statement_timeout: options.statementTimeoutMs ?? 2_000,
  });
  // An idle connection the server drops (restart, network) must not crash the process.
  pool.on("error", () => undefined);

  /** Runs `work` in one transaction on one connection. */
  async function transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** 404 unless the application exists (only a caller the store did not authenticate lacks one). */
  async function requireApplication(db: pg.Pool | pg.PoolClient, applicationId: string, lock = false): Promise<void> {
    const found = await db.query(lock ? sql.lockApplication : sql.application, [applicationId]);
    if (found.rowCount === 0) throw notFound(`Application ${applicationId} was not found.`);
  }

  /** One page of a list: an exact count and the rows of the page. */
  async function page<T>(countSql: string, pageSql: string, keys: unknown[], paging: Paging): Promise<Page<T>> {
    const start = pageStart(paging);
    const [count, rows] = await Promise.all([pool.query<{ total: number }>(countSql, keys), pool.query<{ body: T }>(pageSql, [...keys, paging.limit, start])]);
    const result = bodies(rows);
    return { result, meta: pageMeta(count.rows[0]!.total, result.length, paging) };
  }

  /** An application's report statements, one at a time in this process (lanes.ts). */
  const reportLane = lanes();
  const credentialPrefetch = new CredentialPrefetch();
  async function credential(apiKey: string): Promise<CredentialRow | undefined> {
    const digest = sha256(apiKey);
    const prefetched = credentialPrefetch.take(digest.toString("hex"));
    if (prefetched) return prefetched.row;
    return (await pool.query<CredentialRow>(unscoped.credential, [digest])).rows[0];
  }
  const callerOf = (row: { id: string; organization_id: string }): Caller => Object.freeze({ applicationId: row.id, organizationId: row.organization_id });

  return withUnavailable({
    pool,
    credentialPrefetch,
    close: () => pool.end(),

    async authenticateBearer(apiKey) {
      const row = await credential(apiKey);
      return row === undefined ? undefined : callerOf(row);
    },

    async authenticateKeyPair(apiKey, apiSecret) {
      const row = await credential(apiKey);
      // Compare the secret even when the key is unknown, so both paths take the same time.
      const secretOk = sameDigest(row?.secret_digest ?? sha256(""), sha256(apiSecret));
      return row !== undefined && secretOk ? callerOf(row) : undefined;
    },

    async applications() {
      const rows = (await pool.query<{ id: string; organization_id: string; name: string }>(unscoped.applications)).rows;
      return rows.map((row) => ({ id: row.id, organizationId: row.organization_id, name: row.name }));
    },

    async widget(applicationId, id) {
      const body = firstBody(await pool.query<{ body: Widget }>(sql.widget, [applicationId, id]));
      if (body === undefined) throw notFound(`Widget ${id} was not found.`);
      return body;
    },

    async userActivity(applicationId, userId, paging) {
      if ((await pool.query(sql.user, [applicationId, userId])).rowCount === 0) throw notFound(`User ${userId} was not found.`);
      return page(sql.activityCount, sql.activityPage, [applicationId, userId], paging);
    },

    async encryptionReports(applicationId, filters, paging) {
      // PostgreSQL's text cannot hold U+0000, so no stored report has it in a filter column
      // (loading one fails): such a filter matches nothing, as in memory, without a query
      // that the database would refuse. The date rule is checked first, as in memory.
      if (Object.values(filters).some((value) => typeof value === "string" && value.includes("\u0000"))) {
        reportDateBounds(filters.start_date, filters.end_date);
        return { result: [], meta: pageMeta(0, 0, paging) };
      }
      const statement = reportPageAndCount(applicationId, filters, paging);
      const { total, result } = (await reportLane(applicationId, () => pool.query<{ total: number; result: EncryptionReport[] }>(statement))).rows[0]!;
      return { result, meta: pageMeta(total, result.length, paging) };
    },

    async addReports(applicationId, records) {
      await transaction(async (client) => {
        await client.query(sql.noStatementTimeout);
        await requireApplication(client, applicationId, true);
        // Maintaining a dozen indexes row by row costs several times more than building them
        // once: a large load drops them and builds them again after COPY, in the same
        // transaction (the table is locked for it, so other readers of reports wait).
        const rebuilt =
          records.length >= (options.rebuildIndexesFrom ?? 50_000) ? (await client.query<{ name: string; definition: string }>(sql.reportIndexes)).rows : [];
        for (const index of rebuilt) await client.query(`DROP INDEX ${client.escapeIdentifier(index.name)}`);
        await copyReports(client, applicationId, records);
        if (rebuilt.length > 0) await client.query(sql.buildMemory);
        for (const index of rebuilt) await client.query(index.definition);
      });
      // Fresh statistics for the planner, and a visibility map so that exact counts are
      // answered from the indexes alone (index-only and bitmap scans skip the table).
      const client = await pool.connect();
      try {
        await client.query("SET statement_timeout = 0");
        await client.query(sql.vacuumReports);
      } finally {
        await client.query("RESET statement_timeout").catch(() => undefined);
        client.release();
      }
    },

    async smsProviders(applicationId) {
      return bodies<SmsProvider>(await pool.query(sql.smsProviders, [applicationId]));
    },

    // The application row is locked first, so updates of one application's providers run
    // one after another across every process; the list is then read afresh and locked.
    async updateSmsProvider(applicationId, id, patch) {
      return transaction(async (client) => {
        await requireApplication(client, applicationId, true);
        const providers = bodies<SmsProvider>(await client.query(sql.lockSmsProviders, [applicationId]));
        const { providers: next, updated } = updateProvider(providers, id, patch);
        const before = new Map(providers.map((provider) => [provider.id, JSON.stringify(provider)]));
        // Defaults taken away are written before the one given, for the single-default index.
        const changed = next.filter((provider) => before.get(provider.id) !== JSON.stringify(provider));
        changed.sort((a, b) => Number(a.is_default) - Number(b.is_default));
        for (const provider of changed) {
          await client.query(sql.writeSmsProvider, [applicationId, provider.id, provider.sort, provider.is_default, storedJson(provider)]);
        }
        return updated;
      });
    },

    async emailTransport(applicationId) {
      return firstBody(await pool.query<{ body: EmailTransport }>(sql.emailTransport, [applicationId]));
    },

    async saveEmailTransport(applicationId, settings, now) {
      return transaction(async (client) => {
        const owner = (await client.query<{ id: string; organization_id: string }>(sql.owner, [applicationId])).rows[0];
        if (owner === undefined) throw notFound(`Application ${applicationId} was not found.`);
        const current = firstBody(await client.query<{ body: EmailTransport }>(sql.lockEmailTransport, [applicationId]));
        const record = saveTransport(current, settings, {
          applicationId,
          organizationId: owner.organization_id,
          now,
          newId: () => `eml_${randomBytes(6).toString("hex")}`,
          seal: sealAuth,
          open: openAuth,
        });
        return firstBody(await client.query<{ body: EmailTransport }>(sql.upsertEmailTransport, [applicationId, storedJson(record)]))!;
      });
    },

    async createNotification(applicationId, request, now) {
      await requireApplication(pool, applicationId);
      const receivers = request.receivers ?? [];
      const groups = request.groups ?? [];
      const [users, found] = await Promise.all([
        receivers.length === 0
          ? { rows: [] as { id: string; email_lower: string }[] }
          : pool.query<{ id: string; email_lower: string }>(sql.receivers, [applicationId, receivers, receivers.map((r) => r.toLowerCase())]),
        // bigint: node-postgres reads it as a string.
        groups.length === 0 ? { rows: [] as { g: string }[] } : pool.query<{ g: string }>(sql.groups, [applicationId, groups]),
      ]);
      const ids = new Set(users.rows.map((row) => row.id));
      const emails = new Set(users.rows.map((row) => row.email_lower));
      const known = new Set(found.rows.map((row) => Number(row.g)));
      const notification: Notification = createNotification(
        request,
        {
          canReceive: (receiver) => (receiver.includes("@") ? emails.has(receiver.toLowerCase()) : ids.has(receiver)),
          hasGroup: (group) => known.has(group),
        },
        now,
      );
      await pool.query(sql.insertNotification, [applicationId, notification.id, storedJson(notification)]);
      await pool.query(sql.dropOldNotifications, [applicationId, notificationsKept]);
      return notification;
    },

    async notifications(applicationId) {
      return bodies<Notification>(await pool.query(sql.notifications, [applicationId]));
    },

    async webhook(applicationId, id) {
      const body = firstBody(await pool.query<{ body: Webhook }>(sql.webhook, [applicationId, id]));
      if (body === undefined) throw notFound(`Webhook ${id} was not found.`);
      return body;
    },

    webhooks: (applicationId, paging) => page(sql.webhookCount, sql.webhookPage, [applicationId], paging),

    async webhookHistory(applicationId, webhookId, paging) {
      if ((await pool.query(sql.webhook, [applicationId, webhookId])).rowCount === 0) throw notFound(`Webhook ${webhookId} was not found.`);
      return page(sql.historyCount, sql.historyPage, [applicationId, webhookId], paging);
    },
  });
}
