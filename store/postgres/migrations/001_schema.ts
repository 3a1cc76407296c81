import { oauthTables, POSTGRES_TYPES, sessionsAndKeys } from "../../shared/schema.ts";

/**
 * The whole schema of SQLite migrations 1–9 in PostgreSQL's dialect: vendors, components,
 * incidents and their timelines, transitions, the fetch log and its per-day latency summary, the
 * change feed, accounts, members, sessions, API keys and the OAuth tables. Epoch milliseconds
 * and ids are `bigint`; JSON values are kept as text, as on SQLite, so the two engines store the
 * same values (and `admin copy-to-postgres` copies them as they are).
 */
export default {
  version: 1,
  name: "schema",
  sql: `
CREATE TABLE vendors (
  id BIGSERIAL PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  status_page_url TEXT NOT NULL,
  platform TEXT NOT NULL,
  detected_platform TEXT,
  category TEXT NOT NULL,
  provider TEXT NOT NULL,
  domains TEXT NOT NULL DEFAULT '[]',
  in_catalog INTEGER NOT NULL DEFAULT 1,
  current_status TEXT NOT NULL DEFAULT 'UNKNOWN',
  indicator TEXT NOT NULL DEFAULT 'UNKNOWN',
  last_checked_at BIGINT,
  last_success_at BIGINT,
  last_changed_at BIGINT,
  next_poll_at BIGINT NOT NULL DEFAULT 0,
  deadline_at BIGINT NOT NULL DEFAULT 0,
  failures INTEGER NOT NULL DEFAULT 0,
  etag TEXT,
  last_modified TEXT,
  last_error TEXT,
  endpoint_url TEXT,
  error_kind TEXT,
  error_http_status INTEGER,
  error_message TEXT,
  error_since BIGINT,
  reading_notes TEXT NOT NULL DEFAULT '[]',
  unsupported_reason TEXT,
  platform_misses INTEGER NOT NULL DEFAULT 0,
  redetected_at BIGINT,
  redetected_from TEXT,
  redetected_to TEXT
);
CREATE INDEX vendors_due ON vendors (in_catalog, next_poll_at);
CREATE INDEX vendors_provider ON vendors (provider);

CREATE TABLE components (
  id BIGSERIAL PRIMARY KEY,
  vendor_id BIGINT NOT NULL REFERENCES vendors (id),
  external_id TEXT NOT NULL,
  name TEXT NOT NULL,
  group_name TEXT,
  status TEXT NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  updated_at BIGINT NOT NULL,
  removed_at BIGINT,
  UNIQUE (vendor_id, external_id)
);

CREATE TABLE incidents (
  id BIGSERIAL PRIMARY KEY,
  vendor_id BIGINT NOT NULL REFERENCES vendors (id),
  external_id TEXT NOT NULL,
  title TEXT NOT NULL,
  status TEXT NOT NULL,
  impact TEXT NOT NULL,
  started_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  resolved_at BIGINT,
  url TEXT,
  component_ids TEXT NOT NULL DEFAULT '[]',
  scheduled_start_at BIGINT,
  scheduled_end_at BIGINT,
  UNIQUE (vendor_id, external_id)
);
CREATE INDEX incidents_started ON incidents (started_at DESC, id DESC);
CREATE INDEX incidents_vendor ON incidents (vendor_id, started_at DESC);
CREATE INDEX incidents_unfinished ON incidents (vendor_id)
  WHERE status NOT IN ('RESOLVED', 'COMPLETED');

CREATE TABLE incident_updates (
  id BIGSERIAL PRIMARY KEY,
  incident_id BIGINT NOT NULL REFERENCES incidents (id),
  at BIGINT NOT NULL,
  status TEXT NOT NULL,
  body TEXT NOT NULL
);
-- One entry per (incident, time, status, body); bodies can be long, so the uniqueness is kept
-- on their hash (a btree entry is limited to about 2.7 kB).
CREATE UNIQUE INDEX incident_updates_entry
  ON incident_updates (incident_id, at, status, md5(body));

CREATE TABLE transitions (
  id BIGSERIAL PRIMARY KEY,
  vendor_id BIGINT NOT NULL REFERENCES vendors (id),
  component_id BIGINT REFERENCES components (id),
  from_status TEXT NOT NULL,
  to_status TEXT NOT NULL,
  at BIGINT NOT NULL
);
CREATE INDEX transitions_vendor_at ON transitions (vendor_id, component_id, at);
CREATE INDEX transitions_component ON transitions (component_id) WHERE component_id IS NOT NULL;
CREATE INDEX transitions_component_at ON transitions (at) WHERE component_id IS NOT NULL;

CREATE TABLE fetches (
  id BIGSERIAL PRIMARY KEY,
  vendor_id BIGINT NOT NULL REFERENCES vendors (id),
  at BIGINT NOT NULL,
  latency_ms DOUBLE PRECISION NOT NULL,
  outcome TEXT NOT NULL,
  http_status INTEGER
);
CREATE INDEX fetches_vendor_at ON fetches (vendor_id, at);
CREATE INDEX fetches_at ON fetches (at);

CREATE TABLE fetch_latency_days (
  vendor_id BIGINT NOT NULL REFERENCES vendors (id),
  day BIGINT NOT NULL,
  bucket INTEGER NOT NULL,
  count BIGINT NOT NULL,
  PRIMARY KEY (vendor_id, day, bucket)
);
CREATE INDEX fetch_latency_days_day ON fetch_latency_days (day);

CREATE TABLE changes (
  id BIGSERIAL PRIMARY KEY,
  at BIGINT NOT NULL,
  kind TEXT NOT NULL,
  vendor_slug TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX changes_at ON changes (at);

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  plan TEXT NOT NULL CHECK (plan IN ('FREE', 'PRO', 'TEAM', 'ENTERPRISE')),
  sla_target DOUBLE PRECISION NOT NULL DEFAULT 99.9 CHECK (sla_target > 0 AND sla_target <= 100),
  created_at BIGINT NOT NULL
);

CREATE TABLE members (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'MEMBER')),
  password_hash TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
-- As SQLite's COLLATE NOCASE: one member per address, whatever the case of its ASCII letters.
CREATE UNIQUE INDEX members_email ON members (lower(email));
CREATE INDEX members_account ON members (account_id);

${sessionsAndKeys(POSTGRES_TYPES)}

${oauthTables(POSTGRES_TYPES)}
`,
};
