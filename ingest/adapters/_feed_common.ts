/**
 * Pieces shared by the feed and incident-only adapters: decoding with a PayloadError that names
 * the path, the impact → level table, and the indicator derived from open incidents (DESIGN §4).
 * @module
 */
import type { z } from "zod";
import {
  type EpochMs,
  type Impact,
  type IncidentSnapshot,
  type IncidentStatus,
  type IncidentUpdate,
  isOpen,
  type RankedLevel,
  type StatusLevel,
  worst,
} from "../../domain/mod.ts";
import { PayloadError, UndecodableError } from "./adapter.ts";
import { capArrays, MAX_JSON_DEPTH, nestsDeeperThan } from "./_json_payload.ts";

/**
 * JSON text → value; anything else (an HTML error page, a truncated body, nesting deeper than
 * MAX_JSON_DEPTH) is a PayloadError. Arrays are cut to MAX_JSON_ARRAY_ITEMS.
 */
export function decodeJson(platform: string, body: string): unknown {
  if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
    throw new UndecodableError(platform, `nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return capArrays(JSON.parse(body));
  } catch (e) {
    const head = body.trimStart().slice(0, 40).replace(/\s+/g, " ");
    throw new UndecodableError(platform, `not JSON (${(e as Error).message}); starts "${head}"`);
  }
}

/** Validates `value` against `schema`; the first issue becomes a PayloadError naming its path. */
export function checked<S extends z.ZodType>(
  platform: string,
  schema: S,
  value: unknown,
): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = ["$", ...issue.path.map(String)].join(".");
  throw new PayloadError(platform, path, issue.message);
}

/** Level an open incident of each impact stands for when nothing else states the level. */
export const IMPACT_LEVEL: Readonly<Record<Impact, RankedLevel>> = {
  NONE: "OPERATIONAL",
  MINOR: "DEGRADED_PERFORMANCE",
  MAJOR: "PARTIAL_OUTAGE",
  CRITICAL: "MAJOR_OUTAGE",
  MAINTENANCE: "UNDER_MAINTENANCE",
};

/**
 * Level one incident contributes: nothing once closed, nothing while a maintenance is only
 * scheduled (future), UNDER_MAINTENANCE while one is in progress, else its impact's level.
 */
export function incidentLevel(i: Pick<IncidentSnapshot, "status" | "impact">): RankedLevel {
  if (!isOpen(i.status) || i.status === "SCHEDULED") return "OPERATIONAL";
  if (i.status === "IN_PROGRESS") return "UNDER_MAINTENANCE";
  return IMPACT_LEVEL[i.impact];
}

/** Page indicator of a source with no page or component state: worst open incident, else OPERATIONAL. */
export function indicatorFromIncidents(
  incidents: readonly Pick<IncidentSnapshot, "status" | "impact">[],
): StatusLevel {
  return worst(["OPERATIONAL", ...incidents.map(incidentLevel)]);
}

/** Timeline sorted oldest first; equal times keep their given order. */
export function oldestFirst<T extends { readonly at: EpochMs }>(updates: readonly T[]): T[] {
  return updates.map((u, i) => ({ u, i })).sort((a, b) => a.u.at - b.u.at || a.i - b.i).map((x) =>
    x.u
  );
}

/** Looks `raw` up in `table`; a miss is reported once through `report` and gives `fallback`. */
export function lookup<T>(
  table: Readonly<Record<string, T>>,
  raw: string,
  field: string,
  fallback: T,
  report?: (field: string, value: string) => void,
): T {
  if (Object.hasOwn(table, raw)) return table[raw]!;
  report?.(field, raw);
  return fallback;
}

/** Status an incident has once the last of `updates` is known; `fallback` when there are none. */
export function lastStatus(
  updates: readonly IncidentUpdate[],
  fallback: IncidentStatus,
): IncidentStatus {
  return updates.at(-1)?.status ?? fallback;
}

/** Time of the first update of the final closed run (a later postmortem does not move it). */
export function closedSince(updates: readonly IncidentUpdate[]): EpochMs | null {
  let since: EpochMs | null = null;
  for (const u of updates) since = isOpen(u.status) ? null : since ?? u.at;
  return since;
}
