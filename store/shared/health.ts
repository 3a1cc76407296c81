/**
 * What `/health` and the metrics read about the store, once for both engines.
 * @module
 */
import type { HealthStore, PollOutcome } from "../../domain/mod.ts";
import { readingStateCounts } from "./catalog.ts";
import { all, type Engine, first, numOrNull } from "./query.ts";
import { openSql } from "./sql.ts";

/** The health noun over `engine`. */
export function healthStore(engine: Engine): HealthStore {
  const d = engine.dialect;
  return {
    facts(pollsSince, staleBefore) {
      return engine.read((function* () {
        const c = (yield* first(
          `SELECT (SELECT COUNT(*) FROM vendors WHERE in_catalog = 1) AS services,
             (SELECT COUNT(*) FROM components WHERE removed_at IS NULL) AS components,
             (SELECT COUNT(*) FROM incidents WHERE ${openSql()}) AS open_incidents,
             (SELECT COUNT(*) FROM transitions) AS transitions,
             (SELECT MAX(last_checked_at) FROM vendors) AS last_checked_at`,
        ))!;
        const rows = yield* all(
          `SELECT outcome, COUNT(*) AS n FROM fetches WHERE at >= ? GROUP BY outcome
           ORDER BY ${d.binary("outcome")}`,
          pollsSince,
        );
        return {
          counts: {
            services: Number(c.services),
            components: Number(c.components),
            openIncidents: Number(c.open_incidents),
            transitions: Number(c.transitions),
            lastCheckedAt: numOrNull(c.last_checked_at),
          },
          outcomes: Object.fromEntries(rows.map((r) => [r.outcome as PollOutcome, Number(r.n)])),
          readingStates: yield* readingStateCounts(staleBefore),
        };
      })());
    },
  };
}
