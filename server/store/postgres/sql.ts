// Every statement the PostgreSQL store runs, in one place, so a test can read them all:
// each one that touches a tenant table names application_id (test/stores/postgres/scoping.test.ts).
// The two exceptions are marked `unscoped` and say why.

/** One hit on a rate-limit counter ($1 key, $2 window ms): a new window once the old one is over. */
export const rateLimitHit = `INSERT INTO rate_limits AS r (key, hits, reset_at) VALUES ($1, 1, now() + make_interval(secs => $2 / 1000.0))
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN r.reset_at <= now() THEN 1 ELSE r.hits + 1 END,
    reset_at = CASE WHEN r.reset_at <= now() THEN excluded.reset_at ELSE r.reset_at END
  RETURNING hits, reset_at`;

/** Reads the API never scopes: credentials found by key digest, the start-up listing. */
export const unscoped = {
  // The key digest is what tells the application; nothing else is known yet.
  credential: `SELECT c.secret_digest, a.id, a.organization_id FROM credentials c JOIN applications a ON a.id = c.application_id WHERE c.key_digest = $1`,
  // The per-key limiter's hit and the credential of that key ($3, its digest) in one round
  // trip (server/store/postgres/credential-prefetch.ts); found by digest as above.
  hitWithCredential: `WITH hit AS (${rateLimitHit})
    SELECT hit.hits, hit.reset_at, c.secret_digest, a.id, a.organization_id
    FROM hit LEFT JOIN (credentials c JOIN applications a ON a.id = c.application_id) ON c.key_digest = $3`,
  // The reference server's start-up lines (server/reference-server.ts) list every application held.
  applications: `SELECT id, organization_id, name FROM applications ORDER BY id`,
} as const;

export const sql = {
  application: `SELECT id FROM applications WHERE id = $1`,
  owner: `SELECT id, organization_id FROM applications WHERE id = $1`,
  lockApplication: `SELECT id FROM applications WHERE id = $1 FOR UPDATE`,
  widget: `SELECT body FROM widgets WHERE application_id = $1 AND id = $2`,
  user: `SELECT id FROM users WHERE application_id = $1 AND id = $2`,
  activityCount: `SELECT count(*)::int AS total FROM activities WHERE application_id = $1 AND user_id = $2`,
  activityPage: `SELECT body FROM activities WHERE application_id = $1 AND user_id = $2 ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`,
  smsProviders: `SELECT body FROM sms_providers WHERE application_id = $1 ORDER BY sort`,
  lockSmsProviders: `SELECT body FROM sms_providers WHERE application_id = $1 ORDER BY sort FOR UPDATE`,
  writeSmsProvider: `UPDATE sms_providers SET sort = $3, is_default = $4, body = $5 WHERE application_id = $1 AND id = $2`,
  emailTransport: `SELECT body FROM email_transports WHERE application_id = $1`,
  lockEmailTransport: `SELECT body FROM email_transports WHERE application_id = $1 FOR UPDATE`,
  // Two first saves at once both insert: the later one keeps the earlier's id, created_at and counters.
  upsertEmailTransport: `INSERT INTO email_transports (application_id, body) VALUES ($1, $2)
    ON CONFLICT (application_id) DO UPDATE SET body = excluded.body || jsonb_build_object(
      'id', email_transports.body -> 'id', 'created_at', email_transports.body -> 'created_at',
      'send_count', email_transports.body -> 'send_count', 'fail_count', email_transports.body -> 'fail_count')
    WHERE email_transports.application_id = $1
    RETURNING body`,
  receivers: `SELECT id, email_lower FROM users WHERE application_id = $1 AND can_receive AND (id = ANY($2) OR email_lower = ANY($3))`,
  groups: `SELECT DISTINCT g FROM users, unnest(groups) AS g WHERE application_id = $1 AND groups && $2::bigint[] AND g = ANY($2::bigint[])`,
  insertNotification: `INSERT INTO notifications (application_id, id, body) VALUES ($1, $2, $3)`,
  notifications: `SELECT body FROM notifications WHERE application_id = $1 ORDER BY seq`,
  /** Keeps the $2 latest notifications of application $1. */
  dropOldNotifications: `DELETE FROM notifications WHERE application_id = $1 AND seq <= (SELECT seq FROM notifications WHERE application_id = $1 ORDER BY seq DESC OFFSET $2 LIMIT 1)`,
  webhook: `SELECT body FROM webhooks WHERE application_id = $1 AND id = $2`,
  webhookCount: `SELECT count(*)::int AS total FROM webhooks WHERE application_id = $1`,
  webhookPage: `SELECT body FROM webhooks WHERE application_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
  historyCount: `SELECT count(*)::int AS total FROM webhook_history WHERE application_id = $1 AND webhook_id = $2`,
  historyPage: `SELECT body FROM webhook_history WHERE application_id = $1 AND webhook_id = $2 ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`,
  userGroups: `SELECT id, groups FROM users WHERE application_id = $1`,
  // Index-only counts need the visibility map that VACUUM sets, and the planner fresh statistics.
  vacuumReports: `VACUUM (ANALYZE) encryption_reports, report_day_counts, report_groups`,
  // The secondary indexes of encryption_reports (a large load drops and rebuilds them).
  reportIndexes: `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
    WHERE schemaname = current_schema() AND tablename = 'encryption_reports' AND indexname <> 'encryption_reports_pkey'`,
  buildMemory: `SET LOCAL maintenance_work_mem = '256MB'`,
  // A bulk load (COPY, index builds) is not a request: no statement timeout for its transaction.
  noStatementTimeout: `SET LOCAL statement_timeout = 0`,
  clearReportDayCounts: `DELETE FROM report_day_counts WHERE application_id = $1`,
  countReportDays: `INSERT INTO report_day_counts (application_id, day, country, region, device_type, status, n)
    SELECT application_id, (created_at AT TIME ZONE 'UTC')::date, country, region, device_type, status, count(*)
    FROM encryption_reports WHERE application_id = $1 GROUP BY 1, 2, 3, 4, 5, 6`,
  clearReportGroups: `DELETE FROM report_groups WHERE application_id = $1`,
  listReportGroups: `INSERT INTO report_groups (application_id, group_id, created_at, id)
    SELECT DISTINCT application_id, g, created_at, id FROM encryption_reports, unnest(groups) AS g WHERE application_id = $1`,
  // COPY target of addReports; the rows carry application_id (checked by the store).
  copyReports: `COPY encryption_reports (application_id, id, created_at, account_id, email_lower, country, region, device_type, device_version, status, ip_source, ip_device, groups, body) FROM STDIN`,
} as const;

/** Statements built per request (the report filters): checked by the same test through reportQuery. */
export const reportColumns = {
  account: "account_id",
  email: "email_lower",
  country: "country",
  region: "region",
  device_type: "device_type",
  device_version: "device_version",
  status: "status",
} as const;
