/**
 * The pieces every shape of statusd's output shares: an instant as text, a status level, and
 * the page envelope of lists.
 * @module
 */
import { z } from "zod";
import { ALL_STATUS_LEVELS, type Page, type StatusLevel } from "../domain/mod.ts";

/** An ISO 8601 instant in UTC. */
export const Timestamp = z.string().meta({
  format: "date-time",
  description: "ISO 8601 instant in UTC",
  example: "2026-11-20T14:03:00.000Z",
});

/** A normalised status level. */
export const StatusLevelSchema = z.enum(ALL_STATUS_LEVELS as [StatusLevel, ...StatusLevel[]])
  .meta({
    description:
      "Normalised status, best to worst: OPERATIONAL, UNDER_MAINTENANCE, DEGRADED_PERFORMANCE, " +
      "PARTIAL_OUTAGE, MAJOR_OUTAGE; UNKNOWN means no fresh data (never read, or the vendor's " +
      "page has failed for longer than three poll intervals).",
    example: "OPERATIONAL",
  });

/** The page envelope of DESIGN §10 around `item`s (`what`: "services", "monitors"). */
export function pageSchema<T extends z.ZodType>(item: T, what: string) {
  return z.object({
    content: z.array(item),
    totalElements: z.number().int().meta({ description: `Number of ${what} matching the query` }),
    page: z.number().int().meta({ description: "This page (0-based)" }),
    size: z.number().int().meta({ description: "Page size asked for (`limit`)" }),
    totalPages: z.number().int(),
  }).meta({ description: `One page of ${what}` });
}

/** A page envelope with its items mapped. */
export function pageJson<T, U>(p: Page<T>, map: (t: T) => U): Page<U> {
  return { ...p, content: p.content.map(map) };
}
