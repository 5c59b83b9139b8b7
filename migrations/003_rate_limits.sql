-- Rate-limit counters shared by every server process: one row per limiter key (a digest of
-- the API key, or the client address), counted in fixed windows like express-rate-limit's
-- memory store. Not a tenant table: a key's counter belongs to whoever presents the key.
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  hits integer NOT NULL,
  reset_at timestamptz NOT NULL
);
