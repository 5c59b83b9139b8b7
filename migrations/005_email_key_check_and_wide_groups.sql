-- The fingerprint of the e-mail auth key the database's transports are sealed with (an
-- HMAC of a fixed label under the key, never the key): every server process and db:seed
-- compares its EMAIL_AUTH_KEY with it and refuses to start on a mismatch. One row at most.
CREATE TABLE email_auth_key_check (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  fingerprint text NOT NULL,
  set_at timestamptz NOT NULL DEFAULT now()
);

-- Group ids as the document accepts them: a seed's user groups go up to 9999999999 and the
-- `group` filter takes up to 10 digits, beyond integer's 2147483647. bigint holds them all.
ALTER TABLE users ALTER COLUMN groups TYPE bigint[];
ALTER TABLE encryption_reports ALTER COLUMN groups TYPE bigint[];
