/** Monitors, as SQLite's migration 10. */
export default {
  version: 4,
  name: "monitors",
  sql: `
CREATE TABLE monitors (
  seq BIGSERIAL UNIQUE,
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  service_slug TEXT NOT NULL,
  components TEXT NOT NULL DEFAULT '[]',
  label TEXT,
  sla_target DOUBLE PRECISION CHECK (sla_target IS NULL OR (sla_target > 0 AND sla_target <= 100)),
  paused INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX monitors_account ON monitors (account_id, created_at);
`,
};
