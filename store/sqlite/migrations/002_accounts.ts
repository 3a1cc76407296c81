import { sessionsAndKeys, SQLITE_TYPES } from "../../shared/schema.ts";

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

${sessionsAndKeys(SQLITE_TYPES)}
`,
};
