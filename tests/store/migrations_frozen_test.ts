/**
 * A migration that has shipped never changes: databases that applied it will not apply it
 * again, so an edit would give new installations a schema old ones never get. Each shipped
 * migration's statements (comments and spacing aside) are pinned here by hash; a new migration
 * is added to the list, an old one never edited.
 * @module
 */
import { deepStrictEqual } from "node:assert/strict";
import { createHash } from "node:crypto";
import { MIGRATIONS as SQLITE } from "../../store/sqlite/migrations/mod.ts";
import { MIGRATIONS as POSTGRES } from "../../store/postgres/migrations/mod.ts";

const SHIPPED = `
sqlite 1 engine b8ed44a2752d4fc4
sqlite 2 accounts 531f3759ad2d03be
sqlite 3 oauth 378c249cace58083
sqlite 4 vendor_endpoint 4e0f9b4fdc4994c2
sqlite 5 reading_health 7dcd882d376eb97a
sqlite 6 bounded_history 65b3e35713118da4
sqlite 8 maintenance_window 6a5394adef23de57
sqlite 9 latency_days 0b0fee1dc7d68a86
sqlite 10 monitors 0c3ed6885de30c99
sqlite 11 account_docs 1c1675b0cc3309d0
sqlite 12 idempotency fd9bee5b00a5a33d
sqlite 13 alerting 03795aa7f9a788c2
sqlite 14 pulse_memory cea97aa3c678c2f2
sqlite 15 mail aa7bbc71a5779bae
sqlite 16 alert_index 9609abf2937606b9
sqlite 17 incident_revisions b4fb8f8803bb162e
sqlite 18 incident_removal 2bfcfa63d6415ffe
sqlite 19 early_warning 860092b5c1ed5acc
sqlite 20 promised_first 1fb17204bc39527a
sqlite 21 trust 67c19126e3fd48f9
sqlite 22 vendors_by_url ca38fa240816a515
postgres 1 schema dedfd3e2b984006e
postgres 2 leases ae2222e8ea1907ae
postgres 3 attempts a2ec2e4cc6cdce41
postgres 4 monitors 0f3dc8b0c0b7bcb7
postgres 5 account_docs 7e8435a9b825c674
postgres 6 idempotency d800e64209470e25
postgres 7 alerting 19cf15f0d19286fb
postgres 8 pulse_memory 65e600497adcfa5d
postgres 9 mail 204edc5a3fb72c95
postgres 10 alert_index 9609abf2937606b9
postgres 11 incident_revisions 4b0553544d0a8350
postgres 12 incident_removal 05bdbbb691e83a4d
postgres 13 early_warning 4b967ee3dc9f299e
postgres 14 promised_first 1fb17204bc39527a
postgres 15 trust 4f3b030b6b7ab22c
postgres 16 vendors_by_url e4e5fbecebec9cfb
`;

/** The statements of `sql` without comments or layout. */
function statements(sql: string): string {
  return sql.replace(/--[^\n]*/g, " ").replace(/\s+/g, " ").trim();
}

function hashes(): string[] {
  const out: string[] = [];
  for (const [engine, list] of [["sqlite", SQLITE], ["postgres", POSTGRES]] as const) {
    for (const m of list) {
      const hash = createHash("sha256").update(statements(m.sql)).digest("hex").slice(0, 16);
      out.push(`${engine} ${m.version} ${m.name} ${hash}`);
    }
  }
  return out;
}

Deno.test("no shipped migration changed: every engine's migrations state what they stated", () => {
  deepStrictEqual(hashes(), SHIPPED.trim().split("\n"));
});
