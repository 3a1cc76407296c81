/**
 * Reading what the poller stored, through the store's port: a vendor as the poller will see it
 * next (due-vendor fields) merged with its reading health, its service-level history, and its
 * fetch log.
 * @module
 */
import type { DueVendor, ReadingFacts, Store } from "../../domain/mod.ts";

/** A catalog vendor's stored poll state and reading facts. */
export interface VendorState extends DueVendor {
  readonly reading: ReadingFacts;
}

/** The vendor `slug` as stored now (throws when it is not in the catalog). */
export async function vendorState(store: Store, slug: string): Promise<VendorState> {
  const row = await store.catalog.service(slug);
  const due = (await store.polls.claimDue(Number.MAX_SAFE_INTEGER, 1_000_000))
    .find((v) => v.slug === slug);
  if (!row || !due) throw new Error(`no catalog vendor "${slug}"`);
  return { ...due, reading: row.reading };
}

/** Every service-level transition of `slug`, oldest first. */
export async function serviceTransitions(store: Store, slug: string) {
  const all = { start: -8_640_000_000_000_000, end: 8_640_000_000_000_000 };
  return [...(await store.history.timeline(slug, all, "last"))?.transitions ?? []];
}

/** The outcomes of every fetch of `slug`, oldest first. */
export async function fetchOutcomes(store: Store, slug: string): Promise<string[]> {
  return (await store.history.fetchLog(slug, 0)).map((f) => f.outcome);
}

/** Everything a reader can get out of the store, as one text (to search for what must not be there). */
export async function everythingStored(store: Store): Promise<string> {
  const all = { start: -8_640_000_000_000_000, end: 8_640_000_000_000_000 };
  const details = [];
  for (const { slug } of await store.catalog.names()) {
    details.push(await store.catalog.detail(slug, all, 0), await store.history.fetchLog(slug, 0));
  }
  return JSON.stringify([
    details,
    await store.incidents.page({}, { page: 0, limit: 500 }),
    await store.changes.after(0, 1_000_000),
  ]);
}

/** `kind: message` of the vendor's current error, as the old `last_error` column said it. */
export async function lastError(store: Store, slug: string): Promise<string | null> {
  const error = (await store.catalog.service(slug))?.reading.error;
  return error ? `${error.kind}: ${error.message}` : null;
}
