/**
 * Groups and boards: one row per record, its own fields as JSON; boards have a slug
 * unique on the server (their public address).
 */
export default {
  version: 11,
  name: "account_docs",
  sql: `
CREATE TABLE account_docs (
  kind TEXT NOT NULL CHECK (kind IN ('group', 'board')),
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  slug TEXT UNIQUE,
  doc TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX account_docs_account ON account_docs (account_id, kind, created_at);
`,
};
