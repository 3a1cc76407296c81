/**
 * The built-in OAuth 2.1 authorization server (PROTOCOLS §3): registered clients (dynamic
 * registration), authorization codes, grants (one per approval: the "connected client") and
 * the access and refresh tokens issued under a grant. Every secret (client secret, code,
 * token) is stored only as its SHA-256.
 */
export default {
  version: 3,
  name: "oauth",
  sql: `
-- metadata: the registration as stored and echoed (JSON object, RFC 7591 field names).
CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY,
  secret_hash TEXT,
  name TEXT NOT NULL,
  redirect_uris TEXT NOT NULL,
  auth_method TEXT NOT NULL CHECK (auth_method IN ('none', 'client_secret_post', 'client_secret_basic')),
  metadata TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- One approval by one member for one client; revoking it ends every token issued under it.
CREATE TABLE oauth_grants (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  member_id TEXT REFERENCES members (id) ON DELETE CASCADE,
  scopes TEXT NOT NULL,
  resource TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX oauth_grants_account ON oauth_grants (account_id, client_id);

-- Single use: used_at is set on redemption; grant_id records what that redemption issued so a
-- second redemption can revoke it.
CREATE TABLE oauth_codes (
  code_hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  member_id TEXT REFERENCES members (id) ON DELETE CASCADE,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  scopes TEXT NOT NULL,
  resource TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  grant_id TEXT
);
CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at);

-- kind: 'access' or 'refresh'. A rotated refresh token keeps rotated_at and, for the grace
-- window only, replay: the new pair encrypted under a key derived from the old token itself.
CREATE TABLE oauth_tokens (
  token_hash TEXT PRIMARY KEY,
  grant_id TEXT NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  scopes TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  rotated_at INTEGER,
  replay TEXT,
  revoked_at INTEGER
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);
CREATE INDEX oauth_tokens_expiry ON oauth_tokens (expires_at);
`,
};
