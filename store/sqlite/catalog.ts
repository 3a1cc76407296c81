/**
 * The catalog in the store: vendors are upserted by slug; vendors that left the catalog are
 * kept (with their history) but marked `in_catalog = 0` and no longer polled.
 * @module
 */
import type { EpochMs, Vendor } from "../domain/mod.ts";
import { type Db, transaction } from "./db.ts";

/** What {@link syncCatalog} did. */
export interface CatalogSync {
  readonly added: number;
  readonly updated: number;
  readonly unchanged: number;
  /** Vendors stored before that the catalog no longer lists. */
  readonly retired: number;
}

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
export function syncCatalog(db: Db, vendors: readonly Vendor[], now: EpochMs): CatalogSync {
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

/** The stored id of a vendor by slug, or null. */
export function vendorIdBySlug(db: Db, slug: string): number | null {
  const row = db.prepare("SELECT id FROM vendors WHERE slug = ?").get(slug) as
    | { id: number }
    | undefined;
  return row?.id ?? null;
}
