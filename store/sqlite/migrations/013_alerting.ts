import { alertOutbox, SQLITE_TYPES } from "../../shared/schema.ts";

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

${alertOutbox(SQLITE_TYPES)}
`,
};
