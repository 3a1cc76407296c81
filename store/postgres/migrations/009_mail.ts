import { mailTables, POSTGRES_TYPES } from "../../shared/schema.ts";

/** As SQLite's migration 15: mail consents and suppressions, server secrets, private board
 * slugs within their account, routes' delivery health, consent for existing route addresses.
 */
export default {
  version: 9,
  name: "mail",
  sql: `
${mailTables(POSTGRES_TYPES)}
-- Private boards' slugs are kept within their account (app/boards.ts), so no other account can
-- learn one exists by trying to take it.
UPDATE account_docs SET slug = account_id || '~' || slug
WHERE kind = 'board' AND slug IS NOT NULL AND position('~' in slug) = 0
  AND (doc::jsonb ->> 'public') = 'false';
-- A route's delivery health, apart from the route (a failed delivery never changes its version).
CREATE TABLE route_health (
  account_id TEXT NOT NULL,
  route_id TEXT NOT NULL,
  failures_in_a_row INTEGER NOT NULL DEFAULT 0,
  paused_since BIGINT,
  paused_reason TEXT,
  PRIMARY KEY (account_id, route_id)
);
INSERT INTO route_health (account_id, route_id, failures_in_a_row, paused_since, paused_reason)
SELECT account_id, id, COALESCE((doc::jsonb ->> 'failuresInARow')::int, 0),
  (doc::jsonb -> 'paused' ->> 'since')::bigint, doc::jsonb -> 'paused' ->> 'reason'
FROM account_docs WHERE kind = 'route';
-- Addresses on email routes from before consent existed were entered by the account's owner:
-- they keep getting the route's mail (new addresses confirm first).
INSERT INTO mail_consents (account_id, address, state, token_hash, requested_at, confirmed_at)
SELECT DISTINCT d.account_id, lower(trim(t.value)), 'confirmed', NULL::text, d.created_at,
  d.created_at
FROM account_docs d, jsonb_array_elements_text(d.doc::jsonb -> 'settings' -> 'to') AS t(value)
WHERE d.kind = 'route' AND d.doc::jsonb -> 'settings' ->> 'kind' = 'email'
ON CONFLICT DO NOTHING;
`,
};
