/**
 * Alerting: routes, rules, escalation policies and subscriptions are account
 * documents (the kind check widens, so the table is rebuilt); deliveries are the durable outbox,
 * each with its attempts; named cursors say how far the evaluator has read the change log.
 */
export default {
  version: 13,
  name: "alerting",
  sql: `
CREATE TABLE account_docs_v13 (
  kind TEXT NOT NULL CHECK (kind IN ('group', 'board', 'route', 'rule', 'escalation', 'subscription')),
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  slug TEXT UNIQUE,
  doc TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
);
INSERT INTO account_docs_v13 (kind, id, account_id, slug, doc, created_at, updated_at, version)
  SELECT kind, id, account_id, slug, doc, created_at, updated_at, version FROM account_docs;
DROP TABLE account_docs;
ALTER TABLE account_docs_v13 RENAME TO account_docs;
CREATE INDEX account_docs_account ON account_docs (account_id, kind, created_at);

CREATE TABLE alert_deliveries (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  route_id TEXT NOT NULL,
  source_kind TEXT NOT NULL CHECK (source_kind IN ('rule', 'subscription', 'test', 'notice')),
  source_id TEXT,
  change_id INTEGER,
  notification_id TEXT NOT NULL,
  subject TEXT,
  step INTEGER NOT NULL DEFAULT 0,
  recovery INTEGER NOT NULL DEFAULT 0,
  message TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'delivered', 'failed', 'acknowledged', 'cancelled')),
  not_before INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  claimed_by TEXT,
  claimed_until INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX alert_deliveries_due ON alert_deliveries (state, not_before);
CREATE INDEX alert_deliveries_account ON alert_deliveries (account_id, created_at);
CREATE INDEX alert_deliveries_notification ON alert_deliveries (notification_id);
CREATE INDEX alert_deliveries_subject ON alert_deliveries (source_id, subject, created_at);

CREATE TABLE alert_attempts (
  delivery_id TEXT NOT NULL REFERENCES alert_deliveries (id) ON DELETE CASCADE,
  n INTEGER NOT NULL,
  at INTEGER NOT NULL,
  ok INTEGER NOT NULL,
  status INTEGER,
  reply TEXT,
  latency_ms INTEGER NOT NULL,
  error TEXT,
  PRIMARY KEY (delivery_id, n)
);

CREATE TABLE alert_cursors (
  name TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
`,
};
