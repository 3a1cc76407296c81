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
  const due = (await store.polls.dueVendors(Number.MAX_SAFE_INTEGER, 1_000_000))
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
