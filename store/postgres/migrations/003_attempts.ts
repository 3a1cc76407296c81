/**
 * Attempt counters shared by instances: rate limits per client address and failed
 * sign-ins per email, one row per (limit, key) with the current window.
 */
export default {
  version: 3,
  name: "attempts",
  sql: `
CREATE TABLE attempts (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  window_start BIGINT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX attempts_window ON attempts (window_start);
`,
};
