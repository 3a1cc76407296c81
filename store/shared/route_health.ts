/**
 * Alert routes with their delivery health: the route is an account document (its name and
 * settings, versioned for `If-Match`), its failures in a row and pause live in `route_health`
 * (so a failed delivery never bumps the route's version), and every read puts the two together.
 * Written once for both engines.
 * @module
 */
import type {
  AccountDocStore,
  AlertRouteStore,
  NewRoute,
  RouteHealth,
  RoutePatch,
  RouteRecord,
} from "../../domain/mod.ts";
import { all, type Engine, first, type Row, run } from "./query.ts";

/** One route's health as stored. */
export interface HealthRow {
  readonly failuresInARow: number;
  readonly paused: RouteRecord["paused"];
}

/** What an engine provides for the health rows. */
export interface HealthRows {
  /** The rows of `routeIds` of the account (absent: never failed). */
  read(accountId: string, routeIds: readonly string[]): Promise<ReadonlyMap<string, HealthRow>>;
  /** The atomic outcome update of {@link AlertRouteStore.recordOutcome}, for an existing route. */
  record(
    accountId: string,
    routeId: string,
    outcome: { ok: boolean; at: number; pauseAfter: number; reason: string },
  ): Promise<RouteHealth>;
  /** Deletes the route's row. */
  remove(accountId: string, routeId: string): Promise<void>;
}

const HEALTHY: HealthRow = { failuresInARow: 0, paused: null };

/** The routes noun: account documents of kind `route` with their health put in. */
export function routeStore(
  docs: AccountDocStore<RouteRecord, NewRoute, RoutePatch>,
  health: HealthRows,
): AlertRouteStore {
  const withHealth = (r: RouteRecord, h: HealthRow | undefined): RouteRecord => ({
    ...r,
    ...(h ?? HEALTHY),
  });
  const one = async (r: RouteRecord) =>
    withHealth(r, (await health.read(r.accountId, [r.id])).get(r.id));
  return {
    ...docs,
    async get(accountId, id) {
      const r = await docs.get(accountId, id);
      return r && await one(r);
    },
    async list(accountId, page) {
      const found = await docs.list(accountId, page);
      const rows = await health.read(accountId, found.items.map((r) => r.id));
      return { ...found, items: found.items.map((r) => withHealth(r, rows.get(r.id))) };
    },
    async create(record, limit) {
      const made = await docs.create({ ...record, ...HEALTHY }, limit);
      return typeof made === "object" ? await one(made) : made;
    },
    async update(accountId, id, patch, at, ifVersion) {
      const { name, settings } = patch;
      const updated = await docs.update(
        accountId,
        id,
        {
          ...(name === undefined ? {} : { name }),
          ...(settings === undefined ? {} : { settings }),
        },
        at,
        ifVersion,
      );
      return updated !== null && typeof updated === "object" ? await one(updated) : updated;
    },
    async delete(accountId, id, ifVersion) {
      const done = await docs.delete(accountId, id, ifVersion);
      if (done === true) await health.remove(accountId, id);
      return done;
    },
    async recordOutcome(accountId, routeId, outcome) {
      if (await docs.get(accountId, routeId) === null) return null;
      return await health.record(accountId, routeId, outcome);
    },
    async resume(accountId, routeId) {
      if (await docs.get(accountId, routeId) === null) return false;
      await health.remove(accountId, routeId);
      return true;
    },
  };
}

function healthOf(r: Row): HealthRow {
  return {
    failuresInARow: Number(r.failures_in_a_row),
    paused: r.paused_since === null
      ? null
      : { since: Number(r.paused_since), reason: String(r.paused_reason ?? "") },
  };
}

/** The health rows over `engine`. */
export function healthRows(engine: Engine): HealthRows {
  return {
    read(accountId, routeIds) {
      return engine.once((function* () {
        const out = new Map<string, HealthRow>();
        if (routeIds.length === 0) return out;
        const rows = yield* all(
          `SELECT * FROM route_health WHERE account_id = ? AND ${
            engine.dialect.inJson("route_id")
          }`,
          accountId,
          JSON.stringify(routeIds),
        );
        for (const r of rows) out.set(String(r.route_id), healthOf(r));
        return out;
      })());
    },
    record(accountId, routeId, o) {
      const ok = o.ok ? 1 : 0;
      const pausesFirst = !o.ok && 1 >= o.pauseAfter;
      // One statement: increments are serialised by the row's lock, so exactly one outcome
      // reaches the count that pauses the route, the one that paused it.
      const pausing =
        "? = 0 AND route_health.paused_since IS NULL AND route_health.failures_in_a_row + 1 >= ?";
      return engine.write((function* () {
        const r = yield* first(
          `INSERT INTO route_health (account_id, route_id, failures_in_a_row, paused_since,
             paused_reason) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (account_id, route_id) DO UPDATE SET
             failures_in_a_row = CASE WHEN ? = 1 THEN 0 ELSE route_health.failures_in_a_row + 1 END,
             paused_since = CASE WHEN ${pausing} THEN ? ELSE route_health.paused_since END,
             paused_reason = CASE WHEN ${pausing} THEN ? ELSE route_health.paused_reason END
           RETURNING *`,
          accountId,
          routeId,
          1 - ok,
          pausesFirst ? o.at : null,
          pausesFirst ? o.reason : null,
          ok,
          ok,
          o.pauseAfter,
          o.at,
          ok,
          o.pauseAfter,
          o.reason,
        );
        const health = healthOf(r!);
        return {
          ...health,
          pausedNow: !o.ok && health.paused !== null && health.failuresInARow === o.pauseAfter,
        };
      })());
    },
    async remove(accountId, routeId) {
      await engine.once(
        run("DELETE FROM route_health WHERE account_id = ? AND route_id = ?", accountId, routeId),
      );
    },
  };
}
