/**
 * Accounts (plan, SLA target), members (role, email, password hash), server-side sessions
 * (only a hash of the session id, plus the session's CSRF token) and API keys (only a hash of
 * the secret, a short display prefix, the scope list or NULL for keys made before scopes).
 */
export default {
  version: 2,
  name: "accounts",
  sql: `
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  plan TEXT NOT NULL CHECK (plan IN ('FREE', 'PRO', 'TEAM', 'ENTERPRISE')),
  sla_target REAL NOT NULL DEFAULT 99.9 CHECK (sla_target > 0 AND sla_target <= 100),
  created_at INTEGER NOT NULL
);

CREATE TABLE members (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email TEXT NOT NULL COLLATE NOCASE UNIQUE,
  role TEXT NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'MEMBER')),
  password_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX members_account ON members (account_id);

-- The cookie carries the session id; only its SHA-256 is stored.
CREATE TABLE sessions (
  id_hash TEXT PRIMARY KEY,
  member_id TEXT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_member ON sessions (member_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

-- scopes: JSON array of scope strings, or NULL for keys made before scopes existed.
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  scopes TEXT,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX api_keys_account ON api_keys (account_id, created_at);
CREATE UNIQUE INDEX api_keys_active_name ON api_keys (account_id, name) WHERE revoked_at IS NULL;
`,
};
