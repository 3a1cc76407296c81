/**
 * What `/healthz` reads on SQLite, in one read transaction.
 * @module
 */
import type { HealthStore, PollOutcome, StoreCounts } from "../../domain/mod.ts";
import { readingStateCounts } from "./catalog.ts";
import { type Db, readTransaction, statement } from "./db.ts";
import { promised } from "./promised.ts";
import { openSql } from "./sql.ts";

/** The health noun over `db`. */
export function healthStore(db: Db): HealthStore {
  return promised<HealthStore>({
    facts(pollsSince, staleBefore) {
      return readTransaction(db, () => {
        const counts = statement(
          db,
          `SELECT (SELECT COUNT(*) FROM vendors WHERE in_catalog = 1) AS services,
             (SELECT COUNT(*) FROM components WHERE removed_at IS NULL) AS components,
             (SELECT COUNT(*) FROM incidents WHERE ${openSql()}) AS openIncidents,
             (SELECT COUNT(*) FROM transitions) AS transitions,
             (SELECT MAX(last_checked_at) FROM vendors) AS lastCheckedAt`,
        ).get() as unknown as StoreCounts;
        const rows = statement(
          db,
          "SELECT outcome, COUNT(*) AS n FROM fetches WHERE at >= ? GROUP BY outcome ORDER BY outcome",
        ).all(pollsSince) as { outcome: PollOutcome; n: number }[];
        return {
          counts: { ...counts },
          outcomes: Object.fromEntries(rows.map((r) => [r.outcome, r.n])),
          readingStates: readingStateCounts(db, staleBefore),
        };
      });
    },
  });
}
