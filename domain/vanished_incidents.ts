/**
 * What became of the open incidents a document of open incidents only (Statuspage's summary)
 * stopped listing, as the vendor's history document (its recent incidents, resolved ones
 * included) tells. Such a summary drops an incident once it is resolved, and also when the
 * vendor deletes it; alone it cannot tell the two apart, nor when or in what words the vendor
 * resolved it. The history can:
 *
 * - **resolved**: the history lists it closed; its resolution time and closing update are the
 *   vendor's own (not the time statusd noticed);
 * - **removed**: the history lists every incident that started after its
 *   {@link historyCutoff}, the incident started after that, and neither its id, its title nor
 *   its link is listed: the vendor took it off its page;
 * - **neither** (too old for the history, or listed there still open): closed at the reading
 *   time, as without the history.
 * @module
 */
import { type IncidentSnapshot, isOpen } from "./incident.ts";
import { historyCutoff, listingOf, takenOff } from "./reading_diff.ts";
import type { EpochMs } from "./time.ts";

/** A stored open incident the newest reading no longer lists. */
export interface VanishedIncident {
  readonly externalId: string;
  readonly title: string;
  readonly url: string | null;
  readonly startedAt: EpochMs;
}

/** What the history document says of the vanished incidents. */
export interface SettledIncidents {
  /** The vanished incidents the history lists closed, as it lists them. */
  readonly resolved: readonly IncidentSnapshot[];
  /** External ids of the vanished incidents the vendor took off its page. */
  readonly removed: readonly string[];
}

/** Settles each of `vanished` against `history` (see the module doc). */
export function settleVanished(
  vanished: readonly VanishedIncident[],
  history: readonly IncidentSnapshot[],
): SettledIncidents {
  const listed = new Map(history.map((i) => [i.externalId, i]));
  const cutoff = historyCutoff({ keepsHistory: true, incidents: history });
  const listing = cutoff === null ? null : listingOf(history, cutoff);
  const resolved: IncidentSnapshot[] = [];
  const removed: string[] = [];
  for (const v of vanished) {
    const now = listed.get(v.externalId);
    if (now !== undefined) {
      if (!isOpen(now.status)) resolved.push(now);
    } else if (listing !== null && takenOff(v, listing)) removed.push(v.externalId);
  }
  return { resolved, removed };
}
