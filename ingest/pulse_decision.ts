/**
 * The pulse decisions of a poll, as pure functions of what is known: whether a
 * vendor is calm enough to be read through its pulse document, whether the pulse goes before
 * the full read, and what a pulse read says. `poll_pulse.ts` does the reading around them.
 * @module
 */
import type { StatusLevel } from "../domain/mod.ts";

/** What decides whether a vendor may be read through its pulse. */
export interface CalmFacts {
  /** Failed polls in a row. */
  readonly failures: number;
  /** A reading ever succeeded. */
  readonly everRead: boolean;
  /** The schedule sees it moving (not operational, an open incident, a recent change). */
  readonly moving: boolean;
  readonly level: StatusLevel;
}

/**
 * A vendor is calm, and may be read through its pulse, when its polls succeed and it is neither
 * moving nor unknown. One never read yet is calm too: its first full read then has a pulse
 * fingerprint to go with.
 */
export function calmForPulse(f: CalmFacts): boolean {
  return f.failures === 0 && (!f.everRead || (!f.moving && f.level !== "UNKNOWN"));
}

/**
 * Whether the pulse is read before the full read: not when a full read is due anyway and a pulse
 * was seen before (the full read is what tells; one request fewer per stable interval).
 */
export function pulseGoesFirst(f: {
  readonly fingerprint: string | null;
  readonly fullReadDue: boolean;
}): boolean {
  return !(f.fingerprint !== null && f.fullReadDue);
}

/**
 * What a pulse read says: `unchanged` (the fingerprint the last full read went with, and no full
 * read due: the poll ends there), `changed` (another fingerprint than a known one: read in
 * full, and the change is weighed), or `read` (nothing to compare with, or a full read due: read
 * in full).
 */
export function pulseVerdict(f: {
  /** The fingerprint just read (null: none could be had, e.g. a 304 with none known). */
  readonly read: string | null;
  /** The fingerprint the last full read went with (null: none). */
  readonly previous: string | null;
  readonly fullReadDue: boolean;
}): "unchanged" | "changed" | "read" {
  if (f.read !== null && f.read === f.previous && !f.fullReadDue) return "unchanged";
  return f.previous !== null && f.read !== f.previous ? "changed" : "read";
}
