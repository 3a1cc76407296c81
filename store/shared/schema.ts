/**
 * Schema steps both engines take alike, written once: each renders its DDL with the engine's
 * column types (epoch milliseconds and ids are SQLite `INTEGER`, PostgreSQL `BIGINT`; tables
 * listed in insertion order carry PostgreSQL's `seq`, SQLite's rowid). Both engines'
 * migrations use them; `tests/store/migrations_frozen_test.ts` checks no shipped step changes.
 * @module
 */

/** The types a schema step is rendered with. */
export interface SchemaTypes {
  /** Epoch milliseconds, row ids, counts that can pass 2^31. */
  readonly big: "INTEGER" | "BIGINT";
  /** The insertion-order column leading a listed table (with its comma), or nothing. */
  readonly seq: "" | "seq BIGSERIAL UNIQUE,\n  ";
  /** A row id the database assigns, in insertion order. */
  readonly serialKey: "INTEGER PRIMARY KEY" | "BIGSERIAL PRIMARY KEY";
}

/** SQLite's types. */
export const SQLITE_TYPES: SchemaTypes = {
  big: "INTEGER",
  seq: "",
  serialKey: "INTEGER PRIMARY KEY",
};
/** PostgreSQL's types. */
export const POSTGRES_TYPES: SchemaTypes = {
  big: "BIGINT",
  seq: "seq BIGSERIAL UNIQUE,\n  ",
  serialKey: "BIGSERIAL PRIMARY KEY",
};

/**
 * The OAuth 2.1 tables: registered clients, grants (one per approval), single-use
 * authorization codes and tokens. Every secret is stored only as its SHA-256.
 */
export function oauthTables(t: SchemaTypes): string {
  return `
-- metadata: the registration as stored and echoed (JSON object, RFC 7591 field names).
CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY,
  secret_hash TEXT,
  name TEXT NOT NULL,
  redirect_uris TEXT NOT NULL,
  auth_method TEXT NOT NULL CHECK (auth_method IN ('none', 'client_secret_post', 'client_secret_basic')),
  metadata TEXT NOT NULL,
  created_at ${t.big} NOT NULL
);

-- One approval by one member for one client; revoking it ends every token issued under it.
CREATE TABLE oauth_grants (
  ${t.seq}id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  member_id TEXT REFERENCES members (id) ON DELETE CASCADE,
  scopes TEXT NOT NULL,
  resource TEXT NOT NULL,
  created_at ${t.big} NOT NULL,
  last_used_at ${t.big},
  revoked_at ${t.big}
);
CREATE INDEX oauth_grants_account ON oauth_grants (account_id, client_id);

-- Single use: used_at is set on redemption; grant_id records what that redemption issued so a
-- second redemption can revoke it.
CREATE TABLE oauth_codes (
  code_hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  member_id TEXT REFERENCES members (id) ON DELETE CASCADE,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  scopes TEXT NOT NULL,
  resource TEXT NOT NULL,
  created_at ${t.big} NOT NULL,
  expires_at ${t.big} NOT NULL,
  used_at ${t.big},
  grant_id TEXT
);
CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at);

-- kind: 'access' or 'refresh'. A rotated refresh token keeps rotated_at and, for the grace
-- window only, replay: the new pair encrypted under a key derived from the old token itself.
CREATE TABLE oauth_tokens (
  token_hash TEXT PRIMARY KEY,
  grant_id TEXT NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  scopes TEXT NOT NULL,
  created_at ${t.big} NOT NULL,
  expires_at ${t.big} NOT NULL,
  rotated_at ${t.big},
  replay TEXT,
  revoked_at ${t.big}
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);
CREATE INDEX oauth_tokens_expiry ON oauth_tokens (expires_at);
`;
}

/**
 * Sign-in sessions (only a hash of the session id, and its CSRF token) and API keys (only a
 * hash of the secret, a short display prefix, the scopes).
 */
export function sessionsAndKeys(t: SchemaTypes): string {
  return `
-- The cookie carries the session id; only its SHA-256 is stored.
CREATE TABLE sessions (
  id_hash TEXT PRIMARY KEY,
  member_id TEXT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at ${t.big} NOT NULL,
  expires_at ${t.big} NOT NULL
);
CREATE INDEX sessions_member ON sessions (member_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

-- scopes: JSON array of scope strings, or NULL for keys made before scopes existed.
CREATE TABLE api_keys (
  ${t.seq}id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  scopes TEXT,
  created_at ${t.big} NOT NULL,
  last_used_at ${t.big},
  revoked_at ${t.big}
);
CREATE INDEX api_keys_account ON api_keys (account_id, created_at);
CREATE UNIQUE INDEX api_keys_active_name ON api_keys (account_id, name) WHERE revoked_at IS NULL;
`;
}

/** `Idempotency-Key` records of creates: the first answer, replayed to retries. */
export function idempotencyKeys(t: SchemaTypes): string {
  return `
CREATE TABLE idempotency_keys (
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status INTEGER,
  body TEXT,
  location TEXT,
  created_at ${t.big} NOT NULL,
  PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
`;
}

/**
 * The alert outbox: deliveries (each with its attempts) and the evaluator's named cursors,
 * which say how far it has read the change log.
 */
export function alertOutbox(t: SchemaTypes): string {
  return `
CREATE TABLE alert_deliveries (
  ${t.seq}id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  route_id TEXT NOT NULL,
  source_kind TEXT NOT NULL CHECK (source_kind IN ('rule', 'subscription', 'test', 'notice')),
  source_id TEXT,
  change_id ${t.big},
  notification_id TEXT NOT NULL,
  subject TEXT,
  step INTEGER NOT NULL DEFAULT 0,
  recovery INTEGER NOT NULL DEFAULT 0,
  message TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'delivered', 'failed', 'acknowledged', 'cancelled')),
  not_before ${t.big} NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  claimed_by TEXT,
  claimed_until ${t.big},
  created_at ${t.big} NOT NULL,
  updated_at ${t.big} NOT NULL
);
CREATE INDEX alert_deliveries_due ON alert_deliveries (state, not_before);
CREATE INDEX alert_deliveries_account ON alert_deliveries (account_id, created_at);
CREATE INDEX alert_deliveries_notification ON alert_deliveries (notification_id);
CREATE INDEX alert_deliveries_subject ON alert_deliveries (source_id, subject, created_at);

CREATE TABLE alert_attempts (
  delivery_id TEXT NOT NULL REFERENCES alert_deliveries (id) ON DELETE CASCADE,
  n INTEGER NOT NULL,
  at ${t.big} NOT NULL,
  ok INTEGER NOT NULL,
  status INTEGER,
  reply TEXT,
  latency_ms INTEGER NOT NULL,
  error TEXT,
  PRIMARY KEY (delivery_id, n)
);

CREATE TABLE alert_cursors (
  name TEXT PRIMARY KEY,
  position ${t.big} NOT NULL,
  updated_at ${t.big} NOT NULL
);
`;
}

/**
 * Mail consents per account and address (double opt-in), addresses suppressed for every
 * account (unsubscribed, bounced), and the server's own secrets.
 */
export function mailTables(t: SchemaTypes): string {
  return `
CREATE TABLE mail_consents (
  account_id TEXT NOT NULL,
  address TEXT NOT NULL,
  state TEXT NOT NULL,
  token_hash TEXT,
  requested_at ${t.big} NOT NULL,
  confirmed_at ${t.big},
  PRIMARY KEY (account_id, address)
);
CREATE UNIQUE INDEX mail_consents_token ON mail_consents (token_hash);
CREATE TABLE mail_suppressions (
  address TEXT PRIMARY KEY,
  reason TEXT NOT NULL,
  at ${t.big} NOT NULL
);
CREATE TABLE server_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;
}

/**
 * Who watches a changed service (`monitors_service`), and which services fail to read
 * (`vendors_failing`), without scanning.
 */
export function alertIndex(_t: SchemaTypes): string {
  return `
CREATE INDEX monitors_service ON monitors (service_slug);
CREATE INDEX vendors_failing ON vendors (slug) WHERE failures > 0;
`;
}

/**
 * What the next pulse of a vendor compares with: the pulse fingerprint of its last
 * successful full read, and when that read was.
 */
export function pulseMemory(t: SchemaTypes): string {
  return `
ALTER TABLE vendors ADD COLUMN pulse_fingerprint TEXT;
ALTER TABLE vendors ADD COLUMN last_full_at ${t.big};
`;
}

/**
 * Groups and boards: one row per record, its own fields as JSON; boards have a slug unique on
 * the server (their public address).
 */
export function accountDocs(t: SchemaTypes): string {
  return `
CREATE TABLE account_docs (
  ${t.seq}kind TEXT NOT NULL CHECK (kind IN ('group', 'board')),
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  slug TEXT UNIQUE,
  doc TEXT NOT NULL,
  created_at ${t.big} NOT NULL,
  updated_at ${t.big} NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX account_docs_account ON account_docs (account_id, kind, created_at);
`;
}

/**
 * What vendors rewrote of what they had published (domain `Revision`): an update's text
 * edited, an impact lowered after the fact, a start moved, with what statusd saw before. Kept
 * with the incident (and going with it), a few per incident at most.
 */
export function incidentRevisions(t: SchemaTypes): string {
  return `
CREATE TABLE incident_revisions (
  id ${t.serialKey},
  incident_id ${t.big} NOT NULL REFERENCES incidents (id),
  vendor_id ${t.big} NOT NULL REFERENCES vendors (id),
  at ${t.big} NOT NULL,
  kind TEXT NOT NULL,
  before_text TEXT NOT NULL,
  after_text TEXT NOT NULL
);
CREATE INDEX incident_revisions_incident ON incident_revisions (incident_id);
CREATE INDEX incident_revisions_vendor ON incident_revisions (vendor_id, at);
`;
}

/**
 * When statusd saw a vendor take an incident off its page (null while it is listed); incidents
 * by last update (what feeds are sorted by).
 */
export function incidentRemoval(t: SchemaTypes): string {
  return `ALTER TABLE incidents ADD COLUMN removed_at ${t.big};
CREATE INDEX incidents_updated ON incidents (updated_at DESC, id DESC);
`;
}

/**
 * statusd's own eyes (probes and members' reports): each vendor's probe schedule (its next
 * round is the lease another instance respects), what its targets have answered, its early
 * warning memory and phase; the finished episodes a grade is read from; the reports.
 */
export function earlyWarning(t: SchemaTypes): string {
  return `CREATE TABLE vendor_warnings (
  vendor_id ${t.big} PRIMARY KEY REFERENCES vendors (id),
  next_probe_at ${t.big} NOT NULL DEFAULT 0,
  -- JSON object: target URL -> epoch ms it last answered (a target never answered is no evidence).
  targets TEXT NOT NULL DEFAULT '{}',
  -- JSON: the domain's WarningState.
  state TEXT NOT NULL DEFAULT '{}',
  -- 'suspected' | 'acknowledged' while an episode is open, else NULL.
  phase TEXT,
  updated_at ${t.big} NOT NULL DEFAULT 0
);
CREATE INDEX vendor_warnings_phase ON vendor_warnings (phase);

CREATE TABLE warning_episodes (
  id ${t.serialKey},
  vendor_id ${t.big} NOT NULL REFERENCES vendors (id),
  first_evidence_at ${t.big} NOT NULL,
  suspected_at ${t.big} NOT NULL,
  acknowledged_at ${t.big},
  cleared_at ${t.big},
  delay_ms ${t.big} NOT NULL,
  evidence TEXT NOT NULL,
  -- JSON: failed, total, hosts, reporters, component.
  detail TEXT NOT NULL
);
CREATE INDEX warning_episodes_vendor ON warning_episodes (vendor_id, first_evidence_at);

CREATE TABLE member_reports (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  -- Who in the account reported (a person's email, or a key's name).
  reporter TEXT NOT NULL,
  vendor_id ${t.big} NOT NULL REFERENCES vendors (id),
  component TEXT,
  note TEXT NOT NULL DEFAULT '',
  created_at ${t.big} NOT NULL
);
CREATE INDEX member_reports_vendor ON member_reports (vendor_id, created_at);
CREATE INDEX member_reports_account ON member_reports (account_id, created_at);
`;
}

/**
 * Due vendors in two queues (claimed in this order): those a poll promised a deadline to, and
 * those without one yet (never read, or waiting after a skip). One partial index each, by due
 * time, replaces the single due index, so neither queue is found by filtering the other out.
 */
export function promisedFirst(): string {
  return `DROP INDEX vendors_due;
CREATE INDEX vendors_due_promised ON vendors (next_poll_at, id)
  WHERE in_catalog = 1 AND deadline_at > 0;
CREATE INDEX vendors_due_fresh ON vendors (next_poll_at, id)
  WHERE in_catalog = 1 AND deadline_at = 0;
`;
}

/**
 * Trust in what statusd says of its own eyes: when statusd itself first saw each incident listed
 * and closed (its acknowledgement is read from these, never from the dates a vendor writes), and
 * the vendor's previous successful reading then (a start the vendor gives before it is
 * back-dated); whether a member's report weighs in public (its account had monitored the vendor
 * long enough), with an index for the recent reports every round reads; who made each API key
 * (its scopes are bounded by that member's role at each use; keys made before hold theirs);
 * each vendor's explicit probe URLs from its catalog entry (JSON, or NULL: its domains).
 * Incidents stored before this step take the vendor's own dates, the best there is.
 */
export function trust(t: SchemaTypes): string {
  return `ALTER TABLE incidents ADD COLUMN seen_at ${t.big};
ALTER TABLE incidents ADD COLUMN closed_seen_at ${t.big};
ALTER TABLE incidents ADD COLUMN prior_read_at ${t.big};
UPDATE incidents SET seen_at = started_at,
  closed_seen_at = CASE WHEN status IN ('RESOLVED', 'COMPLETED')
    THEN COALESCE(resolved_at, updated_at) ELSE NULL END;
ALTER TABLE member_reports ADD COLUMN counts INTEGER NOT NULL DEFAULT 0;
CREATE INDEX member_reports_recent ON member_reports (created_at);
ALTER TABLE api_keys ADD COLUMN member_id TEXT REFERENCES members (id) ON DELETE CASCADE;
ALTER TABLE vendors ADD COLUMN probes TEXT;
`;
}

/**
 * Vendors people find and add (#47): the other names a catalog vendor goes by, where a vendor
 * came from (`catalog`; `account`: a status page an account added by URL, listed only for the
 * accounts that added it; `promoted`: one the operator put in this instance's catalog;
 * `candidate`: a catalog row not listed until a reading proves the page is the vendor's, with
 * that proof kept in `proof`), which accounts added which, and a version of what search reads of
 * the vendors, moved by every change to it (the app caches search's input by it).
 */
export function vendorsByUrl(t: SchemaTypes): string {
  return `ALTER TABLE vendors ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]';
ALTER TABLE vendors ADD COLUMN origin TEXT NOT NULL DEFAULT 'catalog';
ALTER TABLE vendors ADD COLUMN proof TEXT;
ALTER TABLE vendors ADD COLUMN proof_checked_at ${t.big};
CREATE TABLE account_vendors (
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  vendor_id ${t.big} NOT NULL REFERENCES vendors (id),
  added_at ${t.big} NOT NULL,
  PRIMARY KEY (account_id, vendor_id)
);
CREATE INDEX account_vendors_vendor ON account_vendors (vendor_id);
CREATE TABLE catalog_version (id INTEGER PRIMARY KEY, version ${t.big} NOT NULL);
INSERT INTO catalog_version (id, version) VALUES (1, 0);
`;
}
