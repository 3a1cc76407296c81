/**
 * The catalog on SQLite: syncing the catalog file in (vendors are upserted by slug; vendors
 * that left the catalog are kept, with their history, but marked `in_catalog = 0` and no longer
 * polled), and every read of services, each in one read transaction.
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
import { type Db, readTransaction, statement, transaction } from "./db.ts";
import { incidentRows, resolvedSince } from "./incidents.ts";
import { promised } from "./promised.ts";
import {
  componentsOf,
  lastModifiedBySlug,
  type RawServiceRow,
  SERVICE_COLUMNS,
  serviceBySlug,
  serviceTransitions,
  serviceWhere,
  toServiceRow,
  withHistory,
} from "./services.ts";
import { jsonList, openSql, READING_STATE_SQL, workingSql } from "./sql.ts";

interface VendorRow {
  id: number;
  slug: string;
  name: string;
  status_page_url: string;
  platform: string;
  category: string;
  provider: string;
  domains: string;
  in_catalog: number;
}

/**
 * Makes the stored vendors match `vendors` in one transaction. A changed status page URL or
 * platform resets the detected platform, the discovered endpoint, conditional-request
 * validators and reading health (error, skip reason, re-detection) and makes the vendor due at
 * `now`.
 */
function syncCatalog(db: Db, vendors: readonly Vendor[], now: EpochMs): CatalogSync {
  return transaction(db, () => {
    const rows = db.prepare(
      "SELECT id, slug, name, status_page_url, platform, category, provider, domains, in_catalog FROM vendors",
    ).all() as unknown as VendorRow[];
    const bySlug = new Map(rows.map((r) => [r.slug, r]));
    const insert = db.prepare(
      `INSERT INTO vendors (slug, name, status_page_url, platform, category, provider, domains, next_poll_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const update = db.prepare(
      `UPDATE vendors SET name = ?, category = ?, provider = ?, domains = ?, in_catalog = 1 WHERE id = ?`,
    );
    const moved = db.prepare(
      `UPDATE vendors SET status_page_url = ?, platform = ?, detected_platform = NULL, endpoint_url = NULL,
         etag = NULL, last_modified = NULL, next_poll_at = ?, deadline_at = 0, failures = 0,
         error_kind = NULL, error_http_status = NULL, error_message = NULL, error_since = NULL,
         unsupported_reason = NULL, platform_misses = 0, redetected_at = NULL,
         redetected_from = NULL, redetected_to = NULL WHERE id = ?`,
    );
    let added = 0, updated = 0, unchanged = 0;
    const seen = new Set<string>();
    for (const v of vendors) {
      seen.add(v.slug);
      const domains = JSON.stringify(v.domains);
      const row = bySlug.get(v.slug);
      if (!row) {
        insert.run(
          v.slug,
          v.name,
          v.statusPageUrl,
          v.platform,
          v.category,
          v.provider,
          domains,
          now,
        );
        added++;
        continue;
      }
      const sameSource = row.status_page_url === v.statusPageUrl && row.platform === v.platform;
      const same = sameSource && row.name === v.name && row.category === v.category &&
        row.provider === v.provider && row.domains === domains && row.in_catalog === 1;
      if (same) {
        unchanged++;
        continue;
      }
      update.run(v.name, v.category, v.provider, domains, row.id);
      if (!sameSource) moved.run(v.statusPageUrl, v.platform, now, row.id);
      updated++;
    }
    const retire = db.prepare("UPDATE vendors SET in_catalog = 0 WHERE id = ?");
    let retired = 0;
    for (const row of rows) {
      if (seen.has(row.slug) || row.in_catalog === 0) continue;
      retire.run(row.id);
      retired++;
    }
    return { added, updated, unchanged, retired };
  });
}

function providerRows(db: Db, window: { start: EpochMs; end: EpochMs }): ProviderRow[] {
  const rows = statement(
    db,
    `SELECT v.id, v.provider, v.name, v.current_status AS status,
       (SELECT COUNT(*) FROM incidents i WHERE i.vendor_id = v.id AND ${openSql("i")}) AS open
     FROM vendors v WHERE v.in_catalog = 1 ORDER BY v.provider, v.name COLLATE NOCASE, v.slug`,
  ).all() as { id: number; provider: string; name: string; status: StatusLevel; open: number }[];
  const transitions = serviceTransitions(db, rows.map((r) => r.id), window);
  const out: ProviderRow[] = [];
  let current: {
    provider: string;
    serviceNames: string[];
    byStatus: Partial<Record<StatusLevel, number>>;
    activeIncidents: number;
    services: ProviderRow["services"][number][];
  } | null = null;
  for (const r of rows) {
    if (current === null || current.provider !== r.provider) {
      current = {
        provider: r.provider,
        serviceNames: [],
        byStatus: {},
        activeIncidents: 0,
        services: [],
      };
      out.push(current);
    }
    current.serviceNames.push(r.name);
    current.services.push({ currentStatus: r.status, transitions: transitions.get(r.id) ?? [] });
    current.byStatus[r.status] = (current.byStatus[r.status] ?? 0) + 1;
    current.activeIncidents += r.open;
  }
  return out;
}

/** Catalog services per reading state (every state present). */
export function readingStateCounts(db: Db, staleBefore: EpochMs): Record<ReadingState, number> {
  const rows = statement(
    db,
    `SELECT state, COUNT(*) AS n FROM (SELECT ${READING_STATE_SQL} AS state FROM vendors
     WHERE in_catalog = 1) GROUP BY state`,
  ).all(staleBefore) as { state: ReadingState; n: number }[];
  const out = Object.fromEntries(READING_STATES.map((s) => [s, 0])) as Record<ReadingState, number>;
  for (const r of rows) out[r.state] = r.n;
  return out;
}

function statusCounts(db: Db): Record<StatusLevel, number> {
  const rows = statement(
    db,
    "SELECT current_status AS status, COUNT(*) AS n FROM vendors WHERE in_catalog = 1 GROUP BY current_status",
  ).all() as { status: StatusLevel; n: number }[];
  const out = Object.fromEntries(ALL_STATUS_LEVELS.map((s) => [s, 0])) as Record<
    StatusLevel,
    number
  >;
  for (const r of rows) out[r.status] = r.n;
  return out;
}

/** The catalog noun over `db`. */
export function catalogStore(db: Db): CatalogStore {
  const rowsOf = (sql: string, ...params: (string | number)[]) =>
    (db.prepare(sql).all(...params) as unknown as RawServiceRow[]).map(toServiceRow);
  return promised<CatalogStore>({
    sync: (vendors, now) => syncCatalog(db, vendors, now),
    page(filter, page, window) {
      return readTransaction(db, () => {
        const w = serviceWhere(filter);
        const total = (db.prepare(`SELECT COUNT(*) AS n FROM vendors WHERE ${w.sql}`)
          .get(...w.params) as { n: number }).n;
        const rows = rowsOf(
          `SELECT ${SERVICE_COLUMNS} FROM vendors WHERE ${w.sql}
           ORDER BY name COLLATE NOCASE, slug LIMIT ? OFFSET ?`,
          ...w.params,
          page.limit,
          offsetOf(page),
        );
        return { rows: withHistory(db, rows, window), total };
      });
    },
    candidates(filter) {
      const w = serviceWhere(filter);
      const rows = db.prepare(`SELECT id, name, slug, domains FROM vendors WHERE ${w.sql}`)
        .all(...w.params) as { id: number; name: string; slug: string; domains: string }[];
      return rows.map((r): ServiceCandidate => ({
        ...r,
        domains: JSON.parse(r.domains) as string[],
      }));
    },
    byIds(ids, window) {
      if (ids.length === 0) return [];
      return readTransaction(db, () => {
        const rows = rowsOf(
          `SELECT ${SERVICE_COLUMNS} FROM vendors WHERE id IN (SELECT value FROM json_each(?))`,
          jsonList(ids),
        );
        const byId = new Map(rows.map((r) => [r.id, r]));
        return withHistory(db, ids.flatMap((id) => byId.get(id) ?? []), window);
      });
    },
    service: (slug) => serviceBySlug(db, slug),
    failing: () =>
      (statement(
        db,
        "SELECT slug, error_since FROM vendors WHERE failures > 0 ORDER BY slug",
      ).all() as { slug: string; error_since: number | null }[]).map((r) => ({
        slug: r.slug,
        since: r.error_since === null ? null : Number(r.error_since),
      })),
    detail(slug, window, resolvedAfter) {
      return readTransaction(db, () => {
        const service = serviceBySlug(db, slug);
        if (service === null) return null;
        const [history] = withHistory(db, [service], window);
        return {
          ...history!,
          components: componentsOf(db, service.id),
          incidents: incidentRows(db, { vendorId: service.id, active: true }, {
            page: 0,
            limit: 500,
          }),
          resolved: resolvedSince(db, service.id, resolvedAfter),
        };
      });
    },
    names() {
      return statement(db, "SELECT name, slug FROM vendors WHERE in_catalog = 1 ORDER BY slug")
        .all().map((r) => ({ name: String(r.name), slug: String(r.slug) }));
    },
    providers: (window) => readTransaction(db, () => providerRows(db, window)),
    lastModified: () => lastModifiedBySlug(db),
    backToWorking(since, window) {
      return readTransaction(db, () => {
        const rows = rowsOf(
          `SELECT ${SERVICE_COLUMNS} FROM vendors v WHERE v.in_catalog = 1
             AND v.last_changed_at >= ? AND ${workingSql("v")}
           ORDER BY v.last_changed_at DESC, v.id`,
          since,
        );
        return withHistory(db, rows, window, "recovery");
      });
    },
    overview(q) {
      return readTransaction(db, () => {
        const disrupted = q.disrupted.flatMap((status) => {
          const w = serviceWhere({ status });
          return rowsOf(
            `SELECT ${SERVICE_COLUMNS} FROM vendors WHERE ${w.sql}
             ORDER BY name COLLATE NOCASE, slug LIMIT ?`,
            ...w.params,
            q.perLevel,
          );
        });
        return {
          byStatus: statusCounts(db),
          readingStates: readingStateCounts(db, q.staleBefore),
          disrupted: withHistory(db, disrupted, q.window),
          activeIncidents: incidentRows(db, { active: true }, { page: 0, limit: q.incidents }),
        };
      });
    },
  });
}
