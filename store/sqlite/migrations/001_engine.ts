/** Vendors, their components, incidents, status transitions, fetch log and change feed. */
export default {
  version: 1,
  name: "engine",
  sql: `
CREATE TABLE vendors (
  id INTEGER PRIMARY KEY,
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
  last_checked_at INTEGER,
  last_success_at INTEGER,
  last_changed_at INTEGER,
  next_poll_at INTEGER NOT NULL DEFAULT 0,
  -- Latest acceptable start of the next poll (0 = none promised yet); later = a missed deadline.
  deadline_at INTEGER NOT NULL DEFAULT 0,
  failures INTEGER NOT NULL DEFAULT 0,
  etag TEXT,
  last_modified TEXT,
  last_error TEXT
);
CREATE INDEX vendors_due ON vendors (in_catalog, next_poll_at);
CREATE INDEX vendors_provider ON vendors (provider);

CREATE TABLE components (
  id INTEGER PRIMARY KEY,
  vendor_id INTEGER NOT NULL REFERENCES vendors (id),
  external_id TEXT NOT NULL,
  name TEXT NOT NULL,
  group_name TEXT,
  status TEXT NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  removed_at INTEGER,
  UNIQUE (vendor_id, external_id)
);

CREATE TABLE incidents (
  id INTEGER PRIMARY KEY,
  vendor_id INTEGER NOT NULL REFERENCES vendors (id),
  external_id TEXT NOT NULL,
  title TEXT NOT NULL,
  status TEXT NOT NULL,
  impact TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  resolved_at INTEGER,
  url TEXT,
  component_ids TEXT NOT NULL DEFAULT '[]',
  UNIQUE (vendor_id, external_id)
);
CREATE INDEX incidents_started ON incidents (started_at DESC, id DESC);
CREATE INDEX incidents_vendor ON incidents (vendor_id, started_at DESC);

CREATE TABLE incident_updates (
  id INTEGER PRIMARY KEY,
  incident_id INTEGER NOT NULL REFERENCES incidents (id),
  at INTEGER NOT NULL,
  status TEXT NOT NULL,
  body TEXT NOT NULL,
  UNIQUE (incident_id, at, status, body)
);

-- Every change of level, service-wide (component_id NULL) or per component.
CREATE TABLE transitions (
  id INTEGER PRIMARY KEY,
  vendor_id INTEGER NOT NULL REFERENCES vendors (id),
  component_id INTEGER REFERENCES components (id),
  from_status TEXT NOT NULL,
  to_status TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX transitions_vendor_at ON transitions (vendor_id, component_id, at);

-- One row per fetch of a vendor's status endpoint (latency percentiles, outcomes).
CREATE TABLE fetches (
  id INTEGER PRIMARY KEY,
  vendor_id INTEGER NOT NULL REFERENCES vendors (id),
  at INTEGER NOT NULL,
  latency_ms REAL NOT NULL,
  outcome TEXT NOT NULL,
  http_status INTEGER
);
CREATE INDEX fetches_vendor_at ON fetches (vendor_id, at);
CREATE INDEX fetches_at ON fetches (at);

-- The committed change feed (SSE resumes from an id).
CREATE TABLE changes (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  kind TEXT NOT NULL,
  vendor_slug TEXT NOT NULL,
  data TEXT NOT NULL
);
`,
};
