/**
 * A stored vendor row as a service, shared by both engines (`store/sqlite/`,
 * `store/postgres/`): each selects the same columns under the same names, and this maps them.
 * @module
 */
import type { Platform, ServiceRow } from "../../domain/mod.ts";
import { isReadingErrorKind } from "../../domain/mod.ts";

/** A vendor row as the engines select it (their `SERVICE_COLUMNS`). */
export interface RawServiceRow extends Omit<ServiceRow, "reading"> {
  listedPlatform: Platform;
  detectedPlatform: Platform | null;
  lastSuccessAt: number | null;
  failures: number;
  errorKind: string | null;
  errorHttpStatus: number | null;
  errorMessage: string | null;
  errorSince: number | null;
  readingNotes: string;
  unsupportedReason: string | null;
  redetectedAt: number | null;
  redetectedFrom: Platform | null;
  redetectedTo: Platform | null;
}

/** A stored vendor row as a {@link ServiceRow}; a damaged notes column reads as no notes. */
export function toServiceRow(r: RawServiceRow): ServiceRow {
  let notes: string[] = [];
  try {
    const parsed: unknown = JSON.parse(r.readingNotes);
    if (Array.isArray(parsed)) notes = parsed.filter((n): n is string => typeof n === "string");
  } catch {
    // A damaged notes column reads as no notes.
  }
  return {
    id: r.id,
    name: r.name,
    slug: r.slug,
    currentStatus: r.currentStatus,
    category: r.category,
    provider: r.provider,
    statusPageUrl: r.statusPageUrl,
    platform: r.platform,
    lastCheckedAt: r.lastCheckedAt,
    lastChangedAt: r.lastChangedAt,
    reading: {
      platform: r.platform,
      listedPlatform: r.listedPlatform,
      detectedPlatform: r.detectedPlatform,
      unsupportedReason: r.unsupportedReason,
      lastAttemptAt: r.lastCheckedAt,
      lastSuccessAt: r.lastSuccessAt,
      consecutiveFailures: r.failures,
      error: r.failures > 0 && isReadingErrorKind(r.errorKind)
        ? {
          kind: r.errorKind,
          httpStatus: r.errorHttpStatus,
          message: r.errorMessage ?? "",
          since: r.errorSince ?? r.lastCheckedAt ?? 0,
        }
        : null,
      notes,
      redetection: r.redetectedAt !== null && r.redetectedFrom !== null
        ? { at: r.redetectedAt, from: r.redetectedFrom, to: r.redetectedTo ?? "unknown" }
        : null,
    },
  };
}
