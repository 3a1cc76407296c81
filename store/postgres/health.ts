/**
 * What `/healthz` reads on PostgreSQL, in one snapshot.
 * @module
 */
import type { HealthStore, PollOutcome } from "../../domain/mod.ts";
import { readingStateCounts } from "./catalog.ts";
import { read, type Sql } from "./db.ts";
import { openSql } from "./sql.ts";

/** The health noun over the pool `sql`. */
export function healthStore(sql: Sql): HealthStore {
  return {
    facts(pollsSince, staleBefore) {
      return read(sql, async (tx) => {
        const [c] = await tx`SELECT
            (SELECT COUNT(*) FROM vendors WHERE in_catalog = 1) AS services,
            (SELECT COUNT(*) FROM components WHERE removed_at IS NULL) AS components,
            (SELECT COUNT(*) FROM incidents WHERE ${openSql(tx)}) AS open_incidents,
            (SELECT COUNT(*) FROM transitions) AS transitions,
            (SELECT MAX(last_checked_at) FROM vendors) AS last_checked_at`;
        const rows = await tx`SELECT outcome, COUNT(*) AS n FROM fetches
          WHERE at >= ${pollsSince} GROUP BY outcome ORDER BY outcome COLLATE "C"`;
        return {
          counts: {
            services: Number(c!.services),
            components: Number(c!.components),
            openIncidents: Number(c!.open_incidents),
            transitions: Number(c!.transitions),
            lastCheckedAt: c!.last_checked_at === null ? null : Number(c!.last_checked_at),
          },
          outcomes: Object.fromEntries(rows.map((r) => [r.outcome as PollOutcome, Number(r.n)])),
          readingStates: await readingStateCounts(tx, staleBefore),
        };
      });
    },
  };
}
