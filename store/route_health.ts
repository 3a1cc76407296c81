/**
 * Alert routes with their delivery health: the route is an account document (its name and
 * settings, versioned for `If-Match`), its failures in a row and pause live in `route_health`
 * (so a failed delivery never bumps the route's version), and every read puts the two together.
 * The engines differ only in the health rows' SQL.
 * @module
 */
import type {
  AccountDocStore,
  AlertRouteStore,
  NewRoute,
  RouteHealth,
  RoutePatch,
  RouteRecord,
} from "../domain/mod.ts";

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
