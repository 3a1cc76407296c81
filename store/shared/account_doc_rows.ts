/**
 * Groups and boards are stored alike on both engines: one `account_docs` row per record, its
 * own fields as a JSON document beside the columns every record has (id, account, slug for
 * boards, times, version). These map a record to that row and back.
 * @module
 */

/** The columns every account document has. */
const META = new Set(["id", "accountId", "slug", "createdAt", "updatedAt", "version"]);

/** The fields of `record` kept in the JSON document. */
export function docOf(record: Record<string, unknown>): string {
  return JSON.stringify(
    Object.fromEntries(Object.entries(record).filter(([k]) => !META.has(k))),
  );
}

/** A stored row as its record (`withSlug`: boards). */
export function recordOf<R>(row: Record<string, unknown>, withSlug: boolean): R {
  return {
    id: String(row.id),
    accountId: String(row.account_id),
    ...(withSlug ? { slug: String(row.slug) } : {}),
    ...JSON.parse(String(row.doc)),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    version: Number(row.version),
  } as R;
}
