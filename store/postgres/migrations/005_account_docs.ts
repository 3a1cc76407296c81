/** Groups and boards, as SQLite's migration 11. */
export default {
  version: 5,
  name: "account_docs",
  sql: `
CREATE TABLE account_docs (
  seq BIGSERIAL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('group', 'board')),
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  slug TEXT UNIQUE,
  doc TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX account_docs_account ON account_docs (account_id, kind, created_at);
`,
};
