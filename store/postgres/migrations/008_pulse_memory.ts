/** What the next pulse of a vendor compares with, as SQLite's migration 14. */
export default {
  version: 8,
  name: "pulse_memory",
  sql: `
ALTER TABLE vendors ADD COLUMN pulse_fingerprint TEXT;
ALTER TABLE vendors ADD COLUMN last_full_at BIGINT;
`,
};
