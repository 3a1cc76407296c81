/**
 * Status pages accounts add by URL (#47), once for both engines: one vendor per page however many
 * accounts add it, polled like the catalog's, listed only for the accounts that added it (or for
 * everyone once the operator promotes it); the last account to remove it stops its polling.
 * @module
 */
import type {
  AddedVendor,
  AddVendorResult,
  EpochMs,
  NewAddedVendor,
  Platform,
  StatusLevel,
  VendorOrigin,
} from "../../domain/mod.ts";
import { statusPageKey } from "../../domain/mod.ts";
import { all, type Dialect, first, lockTable, type Query, run } from "./query.ts";

/** Moves the version search's cached input is checked against (see `CatalogStore.searchVersion`). */
export function* bumpSearchVersion(): Query<void> {
  // An upsert: a database emptied by hand (or a test) still moves the version.
  yield* run(
    `INSERT INTO catalog_version (id, version) VALUES (1, 1)
     ON CONFLICT (id) DO UPDATE SET version = catalog_version.version + 1`,
  );
}

/** `LIKE` text matching `text` literally (`%`, `_` and the escape escaped). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The polled vendor whose status page is the page of `key` (see `statusPageKey`), or null. */
export function* vendorByPageKey(
  key: string,
): Query<{ id: number; slug: string; origin: VendorOrigin } | null> {
  const host = key.split("/")[0]!;
  const rows = yield* all(
    `SELECT id, slug, origin, status_page_url FROM vendors
      WHERE in_catalog = 1 AND status_page_url LIKE ? ESCAPE '\\'`,
    `%://${likeLiteral(host)}%`,
  );
  const found = rows.find((r) => statusPageKey(String(r.status_page_url)) === key);
  return found
    ? {
      id: Number(found.id),
      slug: String(found.slug),
      origin: String(found.origin) as VendorOrigin,
    }
    : null;
}

/** A slug no stored vendor has: `base`, else `base-2`, `base-3`, … */
function* freeSlug(base: string): Query<string> {
  const rows = yield* all(
    `SELECT slug FROM vendors WHERE slug = ? OR slug LIKE ? ESCAPE '\\'`,
    base,
    `${likeLiteral(base)}-%`,
  );
  const taken = new Set(rows.map((r) => String(r.slug)));
  if (!taken.has(base)) return base;
  for (let n = 2;; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** See `CatalogStore.addVendor`. */
export function* addVendor(
  d: Dialect,
  accountId: string,
  v: NewAddedVendor,
  now: EpochMs,
  limit: number,
): Query<AddVendorResult> {
  // One add at a time: two accounts adding one new page make one vendor.
  yield* lockTable(d, "vendors");
  const key = statusPageKey(v.statusPageUrl);
  if (key === null) throw new Error(`not a status page URL: ${v.statusPageUrl}`);
  const existing = yield* vendorByPageKey(key);
  if (existing !== null && existing.origin !== "account") {
    return { kind: "listed", slug: existing.slug };
  }
  if (existing !== null) {
    const linked = yield* first(
      "SELECT 1 AS one FROM account_vendors WHERE account_id = ? AND vendor_id = ?",
      accountId,
      existing.id,
    );
    if (linked) return { kind: "added", slug: existing.slug, created: false };
  }
  const [{ n }] = yield* all(
    "SELECT COUNT(*) AS n FROM account_vendors WHERE account_id = ?",
    accountId,
  );
  if (Number(n) >= limit) return { kind: "limit" };
  let id = existing?.id;
  let slug = existing?.slug;
  if (id === undefined) {
    // A page added again after every account removed it is polled again, under its old slug.
    const retired = yield* retiredByPageKey(key);
    if (retired !== null) {
      yield* run(
        `UPDATE vendors SET in_catalog = 1, origin = 'account', next_poll_at = ? WHERE id = ?`,
        now,
        retired.id,
      );
      id = retired.id;
      slug = retired.slug;
    } else {
      slug = yield* freeSlug(v.slug);
      const row = yield* first(
        `INSERT INTO vendors (slug, name, status_page_url, platform, category, provider, domains,
           next_poll_at, origin)
         VALUES (?, ?, ?, ?, 'other', ?, ?, ?, 'account') RETURNING id`,
        slug,
        v.name,
        v.statusPageUrl,
        v.platform,
        slug,
        JSON.stringify(v.domains),
        now,
      );
      id = Number(row!.id);
    }
  }
  yield* run(
    "INSERT INTO account_vendors (account_id, vendor_id, added_at) VALUES (?, ?, ?)",
    accountId,
    id,
    now,
  );
  yield* bumpSearchVersion();
  return { kind: "added", slug: slug!, created: existing === null };
}

/** A vendor once added by URL, no longer polled, with this page. */
function* retiredByPageKey(key: string): Query<{ id: number; slug: string } | null> {
  const host = key.split("/")[0]!;
  const rows = yield* all(
    `SELECT id, slug, status_page_url FROM vendors
      WHERE in_catalog = 0 AND origin = 'account' AND status_page_url LIKE ? ESCAPE '\\'`,
    `%://${likeLiteral(host)}%`,
  );
  const found = rows.find((r) => statusPageKey(String(r.status_page_url)) === key);
  return found ? { id: Number(found.id), slug: String(found.slug) } : null;
}

/** See `CatalogStore.accountVendors`. */
export function* accountVendors(accountId: string): Query<AddedVendor[]> {
  const rows = yield* all(
    `SELECT v.slug, v.name, v.status_page_url, COALESCE(v.detected_platform, v.platform) AS platform,
       v.current_status, v.origin, a.added_at,
       (SELECT COUNT(*) FROM account_vendors o WHERE o.vendor_id = v.id) AS accounts
     FROM account_vendors a JOIN vendors v ON v.id = a.vendor_id
     WHERE a.account_id = ? ORDER BY a.added_at DESC, v.slug`,
    accountId,
  );
  return rows.map((r) => ({
    slug: String(r.slug),
    name: String(r.name),
    statusPageUrl: String(r.status_page_url),
    platform: String(r.platform) as Platform,
    currentStatus: String(r.current_status) as StatusLevel,
    addedAt: Number(r.added_at),
    accounts: Number(r.accounts),
    origin: String(r.origin) as VendorOrigin,
  }));
}

/** See `CatalogStore.removeAccountVendor`. */
export function* removeAccountVendor(d: Dialect, accountId: string, slug: string): Query<boolean> {
  yield* lockTable(d, "vendors");
  const row = yield* first(
    `SELECT v.id, v.origin FROM account_vendors a JOIN vendors v ON v.id = a.vendor_id
      WHERE a.account_id = ? AND v.slug = ?`,
    accountId,
    slug,
  );
  if (!row) return false;
  yield* run(
    "DELETE FROM account_vendors WHERE account_id = ? AND vendor_id = ?",
    accountId,
    Number(row.id),
  );
  const [{ n }] = yield* all(
    "SELECT COUNT(*) AS n FROM account_vendors WHERE vendor_id = ?",
    Number(row.id),
  );
  if (Number(n) === 0 && String(row.origin) === "account") {
    yield* run("UPDATE vendors SET in_catalog = 0 WHERE id = ?", Number(row.id));
  }
  yield* bumpSearchVersion();
  return true;
}

/** See `CatalogStore.promote`. */
export function* promoteVendor(slug: string): Query<boolean> {
  const changed = yield* run(
    "UPDATE vendors SET origin = 'promoted' WHERE slug = ? AND origin = 'account' AND in_catalog = 1",
    slug,
  );
  if (changed > 0) yield* bumpSearchVersion();
  return changed > 0;
}

/** See `CatalogStore.candidatesToCheck`. */
export function* candidatesToCheck(
  d: Dialect,
  checkedBefore: EpochMs,
  limit: number,
): Query<{ slug: string; name: string; statusPageUrl: string }[]> {
  const rows = yield* all(
    `SELECT slug, name, status_page_url FROM vendors
      WHERE origin = 'candidate' AND COALESCE(proof_checked_at, 0) < ?
      ORDER BY COALESCE(proof_checked_at, 0), ${d.binary("slug")} LIMIT ?`,
    checkedBefore,
    limit,
  );
  return rows.map((r) => ({
    slug: String(r.slug),
    name: String(r.name),
    statusPageUrl: String(r.status_page_url),
  }));
}

/** See `CatalogStore.recordCandidateCheck`. */
export function* recordCandidateCheck(
  slug: string,
  check: { readonly at: EpochMs; readonly proof: string | null; readonly detail: string },
): Query<boolean> {
  const proof = JSON.stringify({
    at: check.at,
    proven: check.proof !== null,
    why: check.proof ?? check.detail,
  });
  const changed = check.proof !== null
    ? yield* run(
      `UPDATE vendors SET origin = 'catalog', in_catalog = 1, next_poll_at = ?, proof = ?,
         proof_checked_at = ? WHERE slug = ? AND origin = 'candidate'`,
      check.at,
      proof,
      check.at,
      slug,
    )
    : yield* run(
      `UPDATE vendors SET proof = ?, proof_checked_at = ? WHERE slug = ? AND origin = 'candidate'`,
      proof,
      check.at,
      slug,
    );
  if (changed > 0 && check.proof !== null) yield* bumpSearchVersion();
  return changed > 0;
}
