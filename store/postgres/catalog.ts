/**
 * The catalog on PostgreSQL: syncing the catalog file in (vendors upserted by slug; vendors that
 * left the catalog kept with their history, marked `in_catalog = 0`), and every read of
 * services, each in one snapshot.
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
import { read, type Sql, write } from "./db.ts";
import { incidentRows, resolvedSince } from "./incidents.ts";
import {
  byName,
  componentsOf,
  lastModifiedBySlug,
  serviceBySlug,
  serviceColumns,
  serviceTransitions,
  serviceWhere,
  toServiceRows,
  withHistory,
} from "./services.ts";
import { openSql, readingStateSql, workingSql } from "./sql.ts";

/** Makes the stored vendors match `vendors` in one transaction (the SQLite store's rules). */
function syncCatalog(sql: Sql, vendors: readonly Vendor[], now: EpochMs): Promise<CatalogSync> {
  return write(sql, async (tx) => {
    // One sync at a time across instances: the second waits and finds the first's work done.
    await tx`LOCK TABLE vendors IN SHARE ROW EXCLUSIVE MODE`;
    const rows = await tx`SELECT id, slug, name, status_page_url, platform, category, provider,
      domains, in_catalog FROM vendors`;
    const bySlug = new Map(rows.map((r) => [String(r.slug), r]));
    let added = 0, updated = 0, unchanged = 0;
    const seen = new Set<string>();
    const inserts: Record<string, unknown>[] = [];
    for (const v of vendors) {
      seen.add(v.slug);
      const domains = JSON.stringify(v.domains);
      const row = bySlug.get(v.slug);
      if (!row) {
        inserts.push({
          slug: v.slug,
          name: v.name,
          status_page_url: v.statusPageUrl,
          platform: v.platform,
          category: v.category,
          provider: v.provider,
          domains,
          next_poll_at: now,
        });
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
      await tx`UPDATE vendors SET name = ${v.name}, category = ${v.category},
        provider = ${v.provider}, domains = ${domains}, in_catalog = 1 WHERE id = ${row.id}`;
      if (!sameSource) {
        await tx`UPDATE vendors SET status_page_url = ${v.statusPageUrl}, platform = ${v.platform},
          detected_platform = NULL, endpoint_url = NULL, etag = NULL, last_modified = NULL,
          next_poll_at = ${now}, deadline_at = 0, failures = 0, error_kind = NULL,
          error_http_status = NULL, error_message = NULL, error_since = NULL,
          unsupported_reason = NULL, platform_misses = 0, redetected_at = NULL,
          redetected_from = NULL, redetected_to = NULL WHERE id = ${row.id}`;
      }
      updated++;
    }
    for (let i = 0; i < inserts.length; i += 1000) {
      const chunk = inserts.slice(i, i + 1000);
      await tx`INSERT INTO vendors ${
        tx(
          chunk,
          "slug",
          "name",
          "status_page_url",
          "platform",
          "category",
          "provider",
          "domains",
          "next_poll_at",
        )
      }`;
    }
    const retire = rows.filter((r) => !seen.has(String(r.slug)) && r.in_catalog !== 0)
      .map((r) => Number(r.id));
    if (retire.length > 0) {
      await tx`UPDATE vendors SET in_catalog = 0 WHERE id = ANY(${tx.array(retire)}::bigint[])`;
    }
    return { added, updated, unchanged, retired: retire.length };
  });
}

async function providerRows(
  sql: Sql,
  window: { start: EpochMs; end: EpochMs },
): Promise<ProviderRow[]> {
  const rows = await sql`SELECT v.id, v.provider, v.name, v.current_status AS status,
      (SELECT COUNT(*) FROM incidents i WHERE i.vendor_id = v.id AND ${openSql(sql, "i")}) AS open
    FROM vendors v WHERE v.in_catalog = 1
    ORDER BY v.provider COLLATE "C", lower(v.name) COLLATE "C", v.slug COLLATE "C"`;
  const transitions = await serviceTransitions(sql, rows.map((r) => Number(r.id)), window);
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
export async function readingStateCounts(
  sql: Sql,
  staleBefore: EpochMs,
): Promise<Record<ReadingState, number>> {
  const rows = await sql`SELECT state, COUNT(*) AS n FROM (SELECT ${
    readingStateSql(sql, staleBefore)
  } AS state FROM vendors WHERE in_catalog = 1) s GROUP BY state`;
  const out = Object.fromEntries(READING_STATES.map((s) => [s, 0])) as Record<ReadingState, number>;
  for (const r of rows) out[r.state as ReadingState] = Number(r.n);
  return out;
}

async function statusCounts(sql: Sql): Promise<Record<StatusLevel, number>> {
  const rows = await sql`SELECT current_status AS status, COUNT(*) AS n FROM vendors
    WHERE in_catalog = 1 GROUP BY current_status`;
  const out = Object.fromEntries(ALL_STATUS_LEVELS.map((s) => [s, 0])) as Record<
    StatusLevel,
    number
  >;
  for (const r of rows) out[r.status as StatusLevel] = Number(r.n);
  return out;
}

/** The catalog noun over the pool `sql`. */
export function catalogStore(sql: Sql): CatalogStore {
  return {
    sync: (vendors, now) => syncCatalog(sql, vendors, now),
    page(filter, page, window) {
      return read(sql, async (tx) => {
        const where = serviceWhere(tx, filter);
        const [[{ n }], found] = await Promise.all([
          tx`SELECT COUNT(*) AS n FROM vendors WHERE ${where}`,
          tx`SELECT ${serviceColumns(tx)} FROM vendors WHERE ${where}
            ORDER BY ${byName(tx)} LIMIT ${page.limit} OFFSET ${offsetOf(page)}`,
        ]);
        return { rows: await withHistory(tx, toServiceRows(found), window), total: Number(n) };
      });
    },
    async candidates(filter) {
      const rows = await sql`SELECT id, name, slug, domains FROM vendors
        WHERE ${serviceWhere(sql, filter)}`;
      return rows.map((r): ServiceCandidate => ({
        id: Number(r.id),
        name: String(r.name),
        slug: String(r.slug),
        domains: JSON.parse(String(r.domains)) as string[],
      }));
    },
    byIds(ids, window) {
      if (ids.length === 0) return Promise.resolve([]);
      return read(sql, async (tx) => {
        const rows = toServiceRows(
          await tx`SELECT ${serviceColumns(tx)} FROM vendors
            WHERE id = ANY(${tx.array([...ids])}::bigint[])`,
        );
        const byId = new Map(rows.map((r) => [r.id, r]));
        return withHistory(tx, ids.flatMap((id) => byId.get(id) ?? []), window);
      });
    },
    service: (slug) => serviceBySlug(sql, slug),
    async failing() {
      const rows = await sql`SELECT slug, error_since FROM vendors WHERE failures > 0
        ORDER BY slug`;
      return rows.map((r) => ({
        slug: String(r.slug),
        since: r.error_since === null ? null : Number(r.error_since),
      }));
    },
    detail(slug, window, resolvedAfter) {
      return read(sql, async (tx) => {
        const service = await serviceBySlug(tx, slug);
        if (service === null) return null;
        // One snapshot: the reads are sent together and see the same state.
        const [[history], components, incidents, resolved] = await Promise.all([
          withHistory(tx, [service], window),
          componentsOf(tx, service.id),
          incidentRows(tx, { vendorId: service.id, active: true }, { page: 0, limit: 500 }),
          resolvedSince(tx, service.id, resolvedAfter),
        ]);
        return { ...history!, components, incidents, resolved };
      });
    },
    async names() {
      const rows = await sql`SELECT name, slug FROM vendors WHERE in_catalog = 1
        ORDER BY slug COLLATE "C"`;
      return rows.map((r) => ({ name: String(r.name), slug: String(r.slug) }));
    },
    providers: (window) => read(sql, (tx) => providerRows(tx, window)),
    lastModified: () => lastModifiedBySlug(sql),
    backToWorking(since, window) {
      return read(sql, async (tx) => {
        const rows = toServiceRows(
          await tx`SELECT ${serviceColumns(tx)} FROM vendors v WHERE v.in_catalog = 1
            AND v.last_changed_at >= ${since} AND ${workingSql(tx, "v")}
            ORDER BY v.last_changed_at DESC, v.id`,
        );
        return withHistory(tx, rows, window, "recovery");
      });
    },
    overview(q) {
      return read(sql, async (tx) => {
        const disrupted = [];
        for (const status of q.disrupted) {
          disrupted.push(
            ...toServiceRows(
              await tx`SELECT ${serviceColumns(tx)} FROM vendors
                WHERE ${serviceWhere(tx, { status })} ORDER BY ${byName(tx)} LIMIT ${q.perLevel}`,
            ),
          );
        }
        return {
          byStatus: await statusCounts(tx),
          readingStates: await readingStateCounts(tx, q.staleBefore),
          disrupted: await withHistory(tx, disrupted, q.window),
          activeIncidents: await incidentRows(tx, { active: true }, {
            page: 0,
            limit: q.incidents,
          }),
        };
      });
    },
  };
}
