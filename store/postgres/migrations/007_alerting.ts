/** Alerting, as SQLite's migration 13. */
export default {
  version: 7,
  name: "alerting",
  sql: `
ALTER TABLE account_docs DROP CONSTRAINT account_docs_kind_check;
ALTER TABLE account_docs ADD CONSTRAINT account_docs_kind_check
  CHECK (kind IN ('group', 'board', 'route', 'rule', 'escalation', 'subscription'));

CREATE TABLE alert_deliveries (
  seq BIGSERIAL UNIQUE,
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  route_id TEXT NOT NULL,
  source_kind TEXT NOT NULL CHECK (source_kind IN ('rule', 'subscription', 'test', 'notice')),
  source_id TEXT,
  change_id BIGINT,
  notification_id TEXT NOT NULL,
  subject TEXT,
  step INTEGER NOT NULL DEFAULT 0,
  recovery INTEGER NOT NULL DEFAULT 0,
  message TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'delivered', 'failed', 'acknowledged', 'cancelled')),
  not_before BIGINT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  claimed_by TEXT,
  claimed_until BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX alert_deliveries_due ON alert_deliveries (state, not_before);
CREATE INDEX alert_deliveries_account ON alert_deliveries (account_id, created_at);
CREATE INDEX alert_deliveries_notification ON alert_deliveries (notification_id);
CREATE INDEX alert_deliveries_subject ON alert_deliveries (source_id, subject, created_at);

CREATE TABLE alert_attempts (
  delivery_id TEXT NOT NULL REFERENCES alert_deliveries (id) ON DELETE CASCADE,
  n INTEGER NOT NULL,
  at BIGINT NOT NULL,
  ok INTEGER NOT NULL,
  status INTEGER,
  reply TEXT,
  latency_ms INTEGER NOT NULL,
  error TEXT,
  PRIMARY KEY (delivery_id, n)
);

CREATE TABLE alert_cursors (
  name TEXT PRIMARY KEY,
  position BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
`,
};
