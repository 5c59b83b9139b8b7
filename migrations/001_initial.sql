-- The store's tables. Every tenant table carries application_id and leads its keys and
-- indexes with it, so every query is scoped by the caller's application.
-- Records keep the API's JSON as given (`body`); the columns beside it are what the
-- queries filter, order and lock on.

CREATE TABLE applications (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  name text NOT NULL
);

-- Keys and secrets only as SHA-256 digests: a key is found by its digest.
CREATE TABLE credentials (
  key_digest bytea PRIMARY KEY,
  secret_digest bytea NOT NULL,
  application_id text NOT NULL REFERENCES applications (id) ON DELETE CASCADE
);

CREATE TABLE users (
  application_id text NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  id text NOT NULL,
  email_lower text NOT NULL,
  groups integer[] NOT NULL,
  -- Has an APPROVED AUTHENTICATION activity: may receive notifications.
  can_receive boolean NOT NULL,
  PRIMARY KEY (application_id, id)
);
CREATE INDEX users_email ON users (application_id, email_lower) WHERE can_receive;
CREATE INDEX users_groups ON users USING gin (groups);

CREATE TABLE widgets (
  application_id text NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  id text NOT NULL,
  body json NOT NULL,
  PRIMARY KEY (application_id, id)
);

CREATE TABLE activities (
  application_id text NOT NULL,
  user_id text NOT NULL,
  id text NOT NULL,
  created_at timestamptz NOT NULL,
  body json NOT NULL,
  PRIMARY KEY (application_id, id),
  FOREIGN KEY (application_id, user_id) REFERENCES users (application_id, id) ON DELETE CASCADE
);
CREATE INDEX activities_newest ON activities (application_id, user_id, created_at DESC, id);

-- Filter columns are the normalized forms the filters compare (lower-cased e-mail,
-- canonical IPs, the account's groups at load time); users never change through the API.
CREATE TABLE encryption_reports (
  application_id text NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  id text NOT NULL,
  created_at timestamptz NOT NULL,
  account_id text NOT NULL,
  email_lower text NOT NULL,
  country text NOT NULL,
  region text NOT NULL,
  device_type text NOT NULL,
  device_version text NOT NULL,
  status text NOT NULL,
  ip_source text NOT NULL,
  ip_device text NOT NULL,
  groups integer[] NOT NULL,
  body json NOT NULL,
  PRIMARY KEY (application_id, id)
);
-- Newest first for the unfiltered list and the date range; one index per exact-match
-- filter, each ending in the list order so a page is read in order and stops at LIMIT.
CREATE INDEX reports_newest ON encryption_reports (application_id, created_at DESC, id);
CREATE INDEX reports_account ON encryption_reports (application_id, account_id, created_at DESC, id);
CREATE INDEX reports_email ON encryption_reports (application_id, email_lower, created_at DESC, id);
CREATE INDEX reports_country ON encryption_reports (application_id, country, created_at DESC, id);
CREATE INDEX reports_region ON encryption_reports (application_id, region, created_at DESC, id);
CREATE INDEX reports_device_type ON encryption_reports (application_id, device_type, created_at DESC, id);
CREATE INDEX reports_device_version ON encryption_reports (application_id, device_version, created_at DESC, id);
CREATE INDEX reports_status ON encryption_reports (application_id, status, created_at DESC, id);
CREATE INDEX reports_ip_source ON encryption_reports (application_id, ip_source, created_at DESC, id);
CREATE INDEX reports_ip_device ON encryption_reports (application_id, ip_device, created_at DESC, id);
CREATE INDEX reports_groups ON encryption_reports USING gin (groups);

-- Positions 1..n are unique per application (checked at commit, so a swap of two
-- neighbours passes) and at most one provider is the default.
CREATE TABLE sms_providers (
  application_id text NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  id text NOT NULL,
  sort integer NOT NULL CHECK (sort >= 1),
  is_default boolean NOT NULL,
  body json NOT NULL,
  PRIMARY KEY (application_id, id),
  CONSTRAINT sms_providers_position UNIQUE (application_id, sort) DEFERRABLE INITIALLY DEFERRED
);
CREATE UNIQUE INDEX sms_providers_one_default ON sms_providers (application_id) WHERE is_default;

-- One transport per application; `body.auth` is the sealed token, never the clear auth.
CREATE TABLE email_transports (
  application_id text PRIMARY KEY REFERENCES applications (id) ON DELETE CASCADE,
  body jsonb NOT NULL
);

CREATE TABLE notifications (
  application_id text NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  id text NOT NULL,
  body json NOT NULL,
  PRIMARY KEY (application_id, seq)
);

CREATE TABLE webhooks (
  application_id text NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  id text NOT NULL,
  created_at timestamptz NOT NULL,
  body json NOT NULL,
  PRIMARY KEY (application_id, id)
);
CREATE INDEX webhooks_newest ON webhooks (application_id, created_at DESC, id);

CREATE TABLE webhook_history (
  application_id text NOT NULL,
  webhook_id text NOT NULL,
  id text NOT NULL,
  created_at timestamptz NOT NULL,
  body json NOT NULL,
  PRIMARY KEY (application_id, id),
  FOREIGN KEY (application_id, webhook_id) REFERENCES webhooks (application_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_history_newest ON webhook_history (application_id, webhook_id, created_at DESC, id);
