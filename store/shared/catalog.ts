/**
 * The catalog, once for both engines: syncing the catalog file in (vendors are upserted by
 * slug; vendors that left the catalog are kept, with their history, but marked `in_catalog = 0`
 * and no longer polled), and every read of services, each in one read snapshot.
 * @module
 */
import type {
  CatalogStore,
  CatalogSync,
  EpochMs,
  ProviderRow,
  ReadingState,
  ServiceCandidate,
  StatusLevel,
  Vendor,
} from "../../domain/mod.ts";
import { ALL_STATUS_LEVELS, offsetOf, READING_STATES } from "../../domain/mod.ts";
import {
  accountVendors,
  addVendor,
  bumpSearchVersion,
  candidatesToCheck,
  promoteVendor,
  recordCandidateCheck,
  removeAccountVendor,
  vendorByPageKey,
} from "./added_vendors.ts";
import { incidentRows, resolvedSince } from "./incidents.ts";
import {
  all,
  type Dialect,
  type Engine,
  insertMany,
  lockTable,
  type Param,
  type Query,
  run,
} from "./query.ts";
import {
  byName,
  componentsOf,
  lastModifiedBySlug,
  listingOrder,
  SERVICE_COLUMNS,
  serviceBySlug,
  serviceTransitions,
  serviceWhere,
  toServiceRows,
  withHistory,
} from "./services.ts";
import { LISTED_SQL, listedSql, openSql, READING_STATE_SQL, workingSql } from "./sql.ts";

/**
 * Makes the stored vendors match `vendors` in one transaction. A changed status page URL or
 * platform resets the detected platform, the discovered endpoint, conditional-request
 * validators and reading health (error, skip reason, re-detection) and makes the vendor due at
 * `now`.
 */
function* syncCatalog(d: Dialect, vendors: readonly Vendor[], now: EpochMs): Query<CatalogSync> {
  // One sync at a time across instances: the second waits and finds the first's work done.
  yield* lockTable(d, "vendors");
  const rows = yield* all(
    `SELECT id, slug, name, status_page_url, platform, category, provider, domains, probes,
       aliases, origin, in_catalog FROM vendors`,
  );
  const bySlug = new Map(rows.map((r) => [String(r.slug), r]));
  let added = 0, updated = 0, unchanged = 0;
  const seen = new Set<string>();
  const inserts: Param[][] = [];
  const candidates: Param[][] = [];
  for (const v of vendors) {
    seen.add(v.slug);
    const domains = JSON.stringify(v.domains);
    const probes = v.probes && v.probes.length > 0 ? JSON.stringify(v.probes) : null;
    const aliases = JSON.stringify(v.aliases ?? []);
    const row = bySlug.get(v.slug);
    // A candidate is stored unlisted and unread until a reading proves the page is the vendor's;
    // one proven since (now a catalog row) stays as it is.
    if (v.candidate) {
      if (row && String(row.origin) !== "candidate") {
        unchanged++;
        continue;
      }
      if (!row) {
        candidates.push([
          v.slug,
          v.name,
          v.statusPageUrl,
          v.platform,
          v.category,
          v.provider,
          domains,
          now,
          0,
          "candidate",
        ]);
        added++;
        continue;
      }
      const same = row.status_page_url === v.statusPageUrl && row.name === v.name &&
        row.platform === v.platform;
      if (same) unchanged++;
      else {
        // Another page or name: what was checked is checked again.
        yield* run(
          `UPDATE vendors SET name = ?, status_page_url = ?, platform = ?, proof = NULL,
             proof_checked_at = NULL WHERE id = ?`,
          v.name,
          v.statusPageUrl,
          v.platform,
          Number(row.id),
        );
        updated++;
      }
      continue;
    }
    if (!row) {
      inserts.push([
        v.slug,
        v.name,
        v.statusPageUrl,
        v.platform,
        v.category,
        v.provider,
        domains,
        probes,
        aliases,
        now,
      ]);
      added++;
      continue;
    }
    const sameSource = row.status_page_url === v.statusPageUrl && row.platform === v.platform;
    const same = sameSource && row.name === v.name && row.category === v.category &&
      row.provider === v.provider && row.domains === domains &&
      (row.probes ?? null) === probes && row.aliases === aliases && row.origin === "catalog" &&
      Number(row.in_catalog) === 1;
    if (same) {
      unchanged++;
      continue;
    }
    yield* run(
      `UPDATE vendors SET name = ?, category = ?, provider = ?, domains = ?, probes = ?,
         aliases = ?, origin = 'catalog', in_catalog = 1 WHERE id = ?`,
      v.name,
      v.category,
      v.provider,
      domains,
      probes,
      aliases,
      Number(row.id),
    );
    if (!sameSource) {
      yield* run(
        `UPDATE vendors SET status_page_url = ?, platform = ?, detected_platform = NULL,
           endpoint_url = NULL, etag = NULL, last_modified = NULL, next_poll_at = ?,
           deadline_at = 0, failures = 0, error_kind = NULL, error_http_status = NULL,
           error_message = NULL, error_since = NULL, unsupported_reason = NULL,
           platform_misses = 0, redetected_at = NULL, redetected_from = NULL,
           redetected_to = NULL WHERE id = ?`,
        v.statusPageUrl,
        v.platform,
        now,
        Number(row.id),
      );
    }
    updated++;
  }
  yield* insertMany(
    "vendors",
    [
      "slug",
      "name",
      "status_page_url",
      "platform",
      "category",
      "provider",
      "domains",
      "probes",
      "aliases",
      "next_poll_at",
    ],
    inserts,
  );
  yield* insertMany(
    "vendors",
    [
      "slug",
      "name",
      "status_page_url",
      "platform",
      "category",
      "provider",
      "domains",
      "next_poll_at",
      "in_catalog",
      "origin",
    ],
    candidates,
  );
  // What accounts added (and the operator promoted) is theirs, not the catalog file's to retire.
  const retire = rows.filter((r) =>
    !seen.has(String(r.slug)) && Number(r.in_catalog) !== 0 && String(r.origin) === "catalog"
  )
    .map((r) => Number(r.id));
  if (retire.length > 0) {
    yield* run(
      `UPDATE vendors SET in_catalog = 0 WHERE ${d.inJson("id", "bigint")}`,
      JSON.stringify(retire),
    );
  }
  if (added + updated + retire.length > 0) yield* bumpSearchVersion();
  return { added, updated, unchanged, retired: retire.length };
}

function* providerRows(
  d: Dialect,
  window: { start: EpochMs; end: EpochMs },
): Query<ProviderRow[]> {
  const rows = yield* all(
    `SELECT v.id, v.provider, v.name, v.current_status AS status,
       (SELECT COUNT(*) FROM incidents i WHERE i.vendor_id = v.id AND ${openSql("i")}) AS open
     FROM vendors v WHERE ${listedSql("v")}
     ORDER BY ${d.binary("v.provider")}, ${d.caselessOrder("v.name")}, ${d.binary("v.slug")}`,
  );
  const transitions = yield* serviceTransitions(d, rows.map((r) => Number(r.id)), window);
  const out: ProviderRow[] = [];
  let current: {
    provider: string;
    serviceNames: string[];
    byStatus: Partial<Record<StatusLevel, number>>;
    activeIncidents: number;
    services: ProviderRow["services"][number][];
  } | null = null;
  for (const r of rows) {
    const provider = String(r.provider);
    const status = r.status as StatusLevel;
    if (current === null || current.provider !== provider) {
      current = { provider, serviceNames: [], byStatus: {}, activeIncidents: 0, services: [] };
      out.push(current);
    }
    current.serviceNames.push(String(r.name));
    current.services.push({
      currentStatus: status,
      transitions: transitions.get(Number(r.id)) ?? [],
    });
    current.byStatus[status] = (current.byStatus[status] ?? 0) + 1;
    current.activeIncidents += Number(r.open);
  }
  return out;
}

/** Catalog services per reading state (every state present). */
export function* readingStateCounts(staleBefore: EpochMs): Query<Record<ReadingState, number>> {
  const rows = yield* all(
    `SELECT state, COUNT(*) AS n FROM (SELECT ${READING_STATE_SQL} AS state FROM vendors
     WHERE ${LISTED_SQL}) s GROUP BY state`,
    staleBefore,
  );
  const out = Object.fromEntries(READING_STATES.map((s) => [s, 0])) as Record<ReadingState, number>;
  for (const r of rows) out[r.state as ReadingState] = Number(r.n);
  return out;
}

function* statusCounts(): Query<Record<StatusLevel, number>> {
  const rows = yield* all(
    `SELECT current_status AS status, COUNT(*) AS n FROM vendors WHERE ${LISTED_SQL}
      GROUP BY current_status`,
  );
  const out = Object.fromEntries(ALL_STATUS_LEVELS.map((s) => [s, 0])) as Record<
    StatusLevel,
    number
  >;
  for (const r of rows) out[r.status as StatusLevel] = Number(r.n);
  return out;
}

/** The catalog noun over `engine`. */
export function catalogStore(engine: Engine): CatalogStore {
  const d = engine.dialect;
  const services = (sql: string, ...params: Param[]) =>
    all(`SELECT ${SERVICE_COLUMNS} FROM vendors ${sql}`, ...params);
  return {
    sync: (vendors, now) => engine.write(syncCatalog(d, vendors, now)),
    page(filter, page, window) {
      return engine.read((function* () {
        const w = serviceWhere(filter);
        const order = listingOrder(d, filter);
        const [{ n }] = yield* all(`SELECT COUNT(*) AS n FROM vendors WHERE ${w.sql}`, ...w.params);
        const rows = toServiceRows(
          yield* services(
            `WHERE ${w.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
            ...w.params,
            ...order.params,
            page.limit,
            offsetOf(page),
          ),
        );
        return { rows: yield* withHistory(d, rows, window), total: Number(n) };
      })());
    },
    candidates(filter) {
      return engine.once((function* () {
        const w = serviceWhere(filter);
        const rows = yield* all(
          `SELECT id, name, slug, domains, aliases, provider, status_page_url, probes
             FROM vendors WHERE ${w.sql}`,
          ...w.params,
        );
        return rows.map((r): ServiceCandidate => ({
          id: Number(r.id),
          name: String(r.name),
          slug: String(r.slug),
          domains: JSON.parse(String(r.domains)) as string[],
          aliases: JSON.parse(String(r.aliases)) as string[],
          provider: String(r.provider),
          statusPageUrl: String(r.status_page_url),
          probes: r.probes === null ? null : JSON.parse(String(r.probes)) as string[],
        }));
      })());
    },
    byIds(ids, window) {
      if (ids.length === 0) return Promise.resolve([]);
      return engine.read((function* () {
        const rows = toServiceRows(
          yield* services(`WHERE ${d.inJson("id", "bigint")}`, JSON.stringify(ids)),
        );
        const byId = new Map(rows.map((r) => [r.id, r]));
        return yield* withHistory(d, ids.flatMap((id) => byId.get(id) ?? []), window);
      })());
    },
    service: (slug) => engine.once(serviceBySlug(slug)),
    failing() {
      return engine.once((function* () {
        const rows = yield* all(
          `SELECT slug, error_since FROM vendors WHERE failures > 0 ORDER BY ${d.binary("slug")}`,
        );
        return rows.map((r) => ({
          slug: String(r.slug),
          since: r.error_since === null ? null : Number(r.error_since),
        }));
      })());
    },
    detail(slug, window, resolvedAfter) {
      return engine.read((function* () {
        const service = yield* serviceBySlug(slug);
        if (service === null) return null;
        const [history] = yield* withHistory(d, [service], window);
        return {
          ...history!,
          components: yield* componentsOf(d, service.id),
          incidents: yield* incidentRows(d, { vendorId: service.id, active: true }, {
            page: 0,
            limit: 500,
          }),
          resolved: yield* resolvedSince(service.id, resolvedAfter),
        };
      })());
    },
    names() {
      return engine.once((function* () {
        const rows = yield* all(
          `SELECT name, slug FROM vendors WHERE ${LISTED_SQL} ORDER BY ${d.binary("slug")}`,
        );
        return rows.map((r) => ({ name: String(r.name), slug: String(r.slug) }));
      })());
    },
    providers: (window) => engine.read(providerRows(d, window)),
    lastModified: () => engine.once(lastModifiedBySlug(d)),
    backToWorking(since, window) {
      return engine.read((function* () {
        const rows = toServiceRows(
          yield* all(
            `SELECT ${SERVICE_COLUMNS} FROM vendors v WHERE ${listedSql("v")}
               AND v.last_changed_at >= ? AND ${workingSql("v")}
             ORDER BY v.last_changed_at DESC, v.id`,
            since,
          ),
        );
        return yield* withHistory(d, rows, window, "recovery");
      })());
    },
    overview(q) {
      return engine.read((function* () {
        const disrupted = [];
        for (const status of q.disrupted) {
          const w = serviceWhere({ status });
          disrupted.push(
            ...toServiceRows(
              yield* services(
                `WHERE ${w.sql} ORDER BY ${byName(d)} LIMIT ?`,
                ...w.params,
                q.perLevel,
              ),
            ),
          );
        }
        return {
          byStatus: yield* statusCounts(),
          readingStates: yield* readingStateCounts(q.staleBefore),
          disrupted: yield* withHistory(d, disrupted, q.window),
          activeIncidents: yield* incidentRows(d, { active: true }, {
            page: 0,
            limit: q.incidents,
          }),
        };
      })());
    },
    searchVersion: () =>
      engine.once((function* () {
        const [row] = yield* all("SELECT version FROM catalog_version WHERE id = 1");
        return Number(row?.version ?? 0);
      })()),
    byPageKey: (key) =>
      engine.once((function* () {
        const found = yield* vendorByPageKey(key);
        return found && { slug: found.slug, origin: found.origin };
      })()),
    addVendor: (accountId, vendor, now, limit) =>
      engine.write(addVendor(d, accountId, vendor, now, limit)),
    accountVendors: (accountId) => engine.once(accountVendors(accountId)),
    removeAccountVendor: (accountId, slug) => engine.write(removeAccountVendor(d, accountId, slug)),
    promote: (slug) => engine.write(promoteVendor(slug)),
    candidatesToCheck: (before, limit) => engine.once(candidatesToCheck(d, before, limit)),
    recordCandidateCheck: (slug, check) => engine.write(recordCandidateCheck(slug, check)),
  };
}
