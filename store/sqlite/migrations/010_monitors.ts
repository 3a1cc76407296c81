/**
 * Monitors: the services an account watches, by slug, narrowed to component names
 * (a JSON array; empty: the whole service), with a version every write bumps.
 */
export default {
  version: 10,
  name: "monitors",
  sql: `
CREATE TABLE monitors (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  service_slug TEXT NOT NULL,
  components TEXT NOT NULL DEFAULT '[]',
  label TEXT,
  sla_target REAL CHECK (sla_target IS NULL OR (sla_target > 0 AND sla_target <= 100)),
  paused INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX monitors_account ON monitors (account_id, created_at);
`,
};
