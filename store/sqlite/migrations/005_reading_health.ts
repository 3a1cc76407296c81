/**
 * Reading health per vendor: the current error (kind, the vendor's HTTP status, a
 * short message, since when), the notes of the latest reading (what the adapter dropped or
 * capped, a JSON array), why the poller skipped a vendor (no adapter for its platform), and
 * platform re-detection: consecutive platform misses (404 on the platform's endpoint, a
 * payload of another shape) and the last re-detection (when, from which platform, to which).
 * Vendors failing when this migration runs get their error from `last_error`
 * (`"<kind>: <message>"`), dated from their last check.
 */
export default {
  version: 5,
  name: "reading_health",
  sql: `
ALTER TABLE vendors ADD COLUMN error_kind TEXT;
ALTER TABLE vendors ADD COLUMN error_http_status INTEGER;
ALTER TABLE vendors ADD COLUMN error_message TEXT;
ALTER TABLE vendors ADD COLUMN error_since INTEGER;
ALTER TABLE vendors ADD COLUMN reading_notes TEXT NOT NULL DEFAULT '[]';
ALTER TABLE vendors ADD COLUMN unsupported_reason TEXT;
ALTER TABLE vendors ADD COLUMN platform_misses INTEGER NOT NULL DEFAULT 0;
ALTER TABLE vendors ADD COLUMN redetected_at INTEGER;
ALTER TABLE vendors ADD COLUMN redetected_from TEXT;
ALTER TABLE vendors ADD COLUMN redetected_to TEXT;

UPDATE vendors SET
  error_kind = substr(last_error, 1, instr(last_error, ': ') - 1),
  error_message = substr(last_error, instr(last_error, ': ') + 2),
  error_since = last_checked_at
WHERE failures > 0 AND last_error IS NOT NULL AND last_checked_at IS NOT NULL
  AND substr(last_error, 1, instr(last_error, ': ') - 1) IN ('network', 'timeout', 'http_status',
    'too_large', 'redirect_loop', 'refused_address', 'not_machine_readable', 'bad_payload',
    'parse_error');
`,
};
