/** `Idempotency-Key` records of creates: the first answer, replayed to retries. */
export default {
  version: 12,
  name: "idempotency",
  sql: `
CREATE TABLE idempotency_keys (
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status INTEGER,
  body TEXT,
  location TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
`,
};
