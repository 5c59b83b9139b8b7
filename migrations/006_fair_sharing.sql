-- Fair sharing of the database between tenants (docs/postgres.md, Fair sharing).
--
-- The `group` report filter: a GIN index on the groups array finds the matching reports but
-- not in list order, so the planner preferred walking the newest-first index and checking
-- each report's array, reading every report of the application when few or none matched.
-- One row per (report, group) with an index in list order per group answers a page by
-- reading only that page, and an exact count from the index alone.
CREATE TABLE report_groups (
  application_id text NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  group_id bigint NOT NULL,
  created_at timestamptz NOT NULL,
  id text NOT NULL
);
INSERT INTO report_groups (application_id, group_id, created_at, id)
  SELECT DISTINCT application_id, g, created_at, id FROM encryption_reports, unnest(groups) AS g;
CREATE UNIQUE INDEX report_groups_newest ON report_groups (application_id, group_id, created_at DESC, id);
DROP INDEX reports_groups;

-- Expired rate-limit counters are deleted (server/store/postgres/rate-limit-store.ts): this
-- index finds them without reading the live ones.
CREATE INDEX rate_limits_reset_at ON rate_limits (reset_at);
