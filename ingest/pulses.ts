/**
 * What the poller remembers between polls about each vendor's pulse, in memory. The
 * two facts the next pulse compares with (the fingerprint the last full read went with, and when
 * that read was) are also stored with the vendor, and taken from there when newer ({@link
 * PulseBook.adopt}): another instance may have polled the vendor since, or this process
 * restarted. A calm vendor is watched by pulses when
 * its platform offers a pulse document (adapter `pulse`), or when a conditional request of its
 * full document is cheap: the vendor answers it 304, or its document came with validators (an
 * ETag or Last-Modified: presumed honoured from the first read on, until the same document comes
 * whole in answer to a conditional request), or the document is small. A vendor whose full
 * document is large and comes whole every time stays on the stable interval, so pulses never
 * multiply what a vendor sends.
 * @module
 */
import type { EpochMs } from "../domain/mod.ts";
import { digestText } from "./adapters/_pulse.ts";
import type { Adapter, Pulse } from "./adapters/adapter.ts";

/**
 * Largest full document (bytes) re-read at every pulse when the vendor sends no validators or
 * ignores them (instatus, Slack and Heroku documents are about 1 KB; a Better Stack or Status.io
 * document of tens of KB that comes whole every time stays on the stable interval).
 */
export const PULSE_FULL_MAX_BYTES = 8 * 1024;
/**
 * How long a vendor's pulse document is left unused after it went missing, changed shape,
 * failed {@link PULSE_FAILURES_MAX} times in a row while the full document could be read, or
 * changed {@link PULSE_IDLE_CHANGES_MAX} times in a row while the full document did not.
 */
export const PULSE_BROKEN_RETRY_MS = 24 * 60 * 60 * 1000;
/**
 * Pulses in a row that may fail for a passing reason (no connection, a timeout, a 5xx) while the
 * full read after each succeeds, before the pulse document is left alone like a missing one: a
 * vendor whose full document answers but whose pulse endpoint hangs or errors would otherwise get
 * a failed request and a full read every pulse interval.
 */
export const PULSE_FAILURES_MAX = 3;
/**
 * Pulses in a row whose fingerprint changed while the full read after each found nothing new
 * (no change recorded), before the pulse document is left alone like a missing one: a pulse
 * document that says something new every time (a timestamp of when it was served) is no signal,
 * and followed every pulse interval by a full read it would multiply what the vendor sends.
 */
export const PULSE_IDLE_CHANGES_MAX = 3;

/** Longest fingerprint kept as it is (it is stored with the vendor); a longer one is digested. */
export const PULSE_FINGERPRINT_MAX = 128;

/** `fingerprint`, or its digest when longer than {@link PULSE_FINGERPRINT_MAX}. */
export function boundedFingerprint(fingerprint: string): string {
  return fingerprint.length <= PULSE_FINGERPRINT_MAX ? fingerprint : `#${digestText(fingerprint)}`;
}

/** One vendor's pulse memory. */
export interface PulseState {
  /** Fingerprint of the pulse document the last full read went with; null: none yet. */
  fingerprint: string | null;
  /** Validators of the pulse document (its own ETag / Last-Modified). */
  etag: string | null;
  lastModified: string | null;
  /** The last full read that succeeded (a document or a 304); null: none since start. */
  lastFullAt: EpochMs | null;
  /** Size of the last full document received (bytes); null: unknown. */
  fullBytes: number | null;
  /** The full endpoint answered a conditional request 304 the last time one was sent. */
  fullAnswers304: boolean;
  /** The last full document came with an ETag or a Last-Modified. */
  fullValidators: boolean;
  /** The same full document came whole in answer to a conditional request: validators unused. */
  ignoresValidators: boolean;
  /** The pulse document went missing or changed shape: not used before this instant. */
  brokenUntil: EpochMs | null;
  /** Pulses in a row that failed for a passing reason while the vendor was otherwise read. */
  failuresInRow: number;
  /** Pulses in a row that changed while the full read after them found nothing new. */
  idleChangesInRow: number;
}

/** Every vendor's pulse memory, by vendor id. */
export interface PulseBook {
  /** The vendor's state (created empty on first use). */
  of(vendorId: number): PulseState;
  /** The adapter's pulse, when it may be used for the vendor at `now`. */
  usablePulse(vendorId: number, adapter: Adapter, now: EpochMs): Pulse | null;
  /** True when a calm vendor may be polled every pulse interval (see the module doc). */
  watchable(vendorId: number, adapter: Adapter, now: EpochMs): boolean;
  /** Drops the fingerprint (the next calm poll reads the pulse and the full document again). */
  forgetFingerprint(vendorId: number): void;
  /**
   * Takes the stored fingerprint and time of the vendor's last full read when that read is newer
   * than the one remembered here (the pulse document's own validators are then unknown).
   */
  adopt(vendorId: number, lastFullAt: EpochMs | null, fingerprint: string | null): void;
  /** How many vendors it holds. */
  readonly size: number;
}

/** A new, empty book. */
export function createPulseBook(): PulseBook {
  const states = new Map<number, PulseState>();
  const of = (vendorId: number): PulseState => {
    let s = states.get(vendorId);
    if (!s) {
      s = {
        fingerprint: null,
        etag: null,
        lastModified: null,
        lastFullAt: null,
        fullBytes: null,
        fullAnswers304: false,
        fullValidators: false,
        ignoresValidators: false,
        brokenUntil: null,
        failuresInRow: 0,
        idleChangesInRow: 0,
      };
      states.set(vendorId, s);
    }
    return s;
  };
  const usablePulse = (vendorId: number, adapter: Adapter, now: EpochMs) => {
    if (!adapter.pulse) return null;
    const until = states.get(vendorId)?.brokenUntil ?? null;
    return until !== null && now < until ? null : adapter.pulse;
  };
  return {
    of,
    usablePulse,
    watchable(vendorId, adapter, now) {
      if (usablePulse(vendorId, adapter, now)) return true;
      const s = states.get(vendorId);
      if (!s) return false;
      return s.fullAnswers304 || (s.fullValidators && !s.ignoresValidators) ||
        (s.fullBytes !== null && s.fullBytes <= PULSE_FULL_MAX_BYTES);
    },
    adopt(vendorId, lastFullAt, fingerprint) {
      if (lastFullAt === null) return;
      const s = of(vendorId);
      if (s.lastFullAt !== null && s.lastFullAt >= lastFullAt) return;
      s.lastFullAt = lastFullAt;
      s.fingerprint = fingerprint;
      s.etag = s.lastModified = null;
    },
    forgetFingerprint(vendorId) {
      const s = states.get(vendorId);
      if (s) s.fingerprint = null;
    },
    get size() {
      return states.size;
    },
  };
}
