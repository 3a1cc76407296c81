/**
 * Mail consents per account and address (double opt-in for every address statusd mails),
 * addresses suppressed for every account (unsubscribed, bounced), and the server's own secrets.
 */
export default {
  version: 15,
  name: "mail",
  sql: `
CREATE TABLE mail_consents (
  account_id TEXT NOT NULL,
  address TEXT NOT NULL,
  state TEXT NOT NULL,
  token_hash TEXT,
  requested_at INTEGER NOT NULL,
  confirmed_at INTEGER,
  PRIMARY KEY (account_id, address)
);
CREATE UNIQUE INDEX mail_consents_token ON mail_consents (token_hash);
CREATE TABLE mail_suppressions (
  address TEXT PRIMARY KEY,
  reason TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE TABLE server_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`,
};
