import { mailTables, SQLITE_TYPES } from "../../shared/schema.ts";

/**
 * Mail consents per account and address (double opt-in for every address statusd mails),
 * addresses suppressed for every account (unsubscribed, bounced), the server's own secrets,
 * private boards' slugs kept within their account, routes' delivery health, and consent for the
 * addresses email routes already had.
 */
export default {
  version: 15,
  name: "mail",
  sql: `
${mailTables(SQLITE_TYPES)}
-- Private boards' slugs are kept within their account (app/boards.ts), so no other account can
-- learn one exists by trying to take it.
UPDATE account_docs SET slug = account_id || '~' || slug
WHERE kind = 'board' AND slug IS NOT NULL AND instr(slug, '~') = 0
  AND json_extract(doc, '$.public') = 0;
-- A route's delivery health, apart from the route (a failed delivery never changes its version).
CREATE TABLE route_health (
  account_id TEXT NOT NULL,
  route_id TEXT NOT NULL,
  failures_in_a_row INTEGER NOT NULL DEFAULT 0,
  paused_since INTEGER,
  paused_reason TEXT,
  PRIMARY KEY (account_id, route_id)
);
INSERT INTO route_health (account_id, route_id, failures_in_a_row, paused_since, paused_reason)
SELECT account_id, id, COALESCE(json_extract(doc, '$.failuresInARow'), 0),
  json_extract(doc, '$.paused.since'), json_extract(doc, '$.paused.reason')
FROM account_docs WHERE kind = 'route';
-- Addresses on email routes from before consent existed were entered by the account's owner:
-- they keep getting the route's mail (new addresses confirm first).
INSERT OR IGNORE INTO mail_consents (account_id, address, state, token_hash, requested_at,
  confirmed_at)
SELECT DISTINCT d.account_id, lower(trim(t.value)), 'confirmed', NULL, d.created_at, d.created_at
FROM account_docs d, json_each(json_extract(d.doc, '$.settings.to')) t
WHERE d.kind = 'route' AND json_extract(d.doc, '$.settings.kind') = 'email';
`,
};
