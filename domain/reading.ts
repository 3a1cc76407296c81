/**
 * Reading health: why statusd could not read a vendor, and one summary state per vendor.
 * These names are the wire spelling used in the fetch log, REST, MCP, the CLI and pages.
 * @module
 */
import type { Platform } from "./platform.ts";
import type { EpochMs } from "./time.ts";

/**
 * Why a reading failed.
 * - `network`: no connection (DNS, refused, reset).
 * - `timeout`: no complete answer within the fetch timeout.
 * - `http_status`: the vendor answered an HTTP error status (the code is kept beside it).
 * - `too_large`: the body exceeded the size cap.
 * - `redirect_loop`: a redirect loop or too many redirects.
 * - `refused_address`: the URL, a redirect hop or a DNS answer pointed at a loopback, private or
 *   otherwise non-public address the self-hoster did not allow.
 * - `not_machine_readable`: the answer was not a status document (binary, HTML where JSON was due).
 * - `bad_payload`: a document of the wrong shape (the message names the path).
 * - `parse_error`: the document could not be decoded at all.
 */
export const READING_ERROR_KINDS = [
  "network",
  "timeout",
  "http_status",
  "too_large",
  "redirect_loop",
  "refused_address",
  "not_machine_readable",
  "bad_payload",
  "parse_error",
] as const;
/** One of {@link READING_ERROR_KINDS}. */
export type ReadingErrorKind = (typeof READING_ERROR_KINDS)[number];

/**
 * A vendor's reading in one word.
 * - `fresh`: the last reading succeeded and is recent.
 * - `stale`: the last success is older than three intervals, with no failure recorded since.
 * - `failing`: the latest attempt failed.
 * - `unsupported`: the platform has no machine-readable status statusd can read.
 * - `never_read`: not attempted yet.
 */
export const READING_STATES = ["fresh", "stale", "failing", "unsupported", "never_read"] as const;
/** One of {@link READING_STATES}. */
export type ReadingState = (typeof READING_STATES)[number];

/** Data older than this many poll intervals is stale (the service then reads UNKNOWN). */
export const STALE_INTERVALS = 3;

/**
 * Platforms with no machine-readable status statusd can read: `html` (a hand-made page with no
 * status document). A vendor whose catalog platform is `unknown` is detected first; if detection
 * finds nothing its detected platform is `unknown`, which is unsupported too.
 */
export const UNREADABLE_PLATFORMS: readonly Platform[] = ["html"];

/** True when statusd has an adapter for `platform` (every platform but `html` and `unknown`). */
export function isMachineReadable(platform: Platform): boolean {
  return platform !== "unknown" && !UNREADABLE_PLATFORMS.includes(platform);
}

/** Words for each error kind, as pages and the CLI say them (`HTTP 503` for `http_status`). */
export const READING_ERROR_WORDS: Readonly<Record<ReadingErrorKind, string>> = {
  network: "network error",
  timeout: "timeout",
  http_status: "HTTP error",
  too_large: "too large",
  redirect_loop: "redirect loop",
  refused_address: "refused address",
  not_machine_readable: "not machine-readable",
  bad_payload: "bad payload",
  parse_error: "parse error",
};

/** True for a value of {@link READING_ERROR_KINDS}. */
export function isReadingErrorKind(value: unknown): value is ReadingErrorKind {
  return (READING_ERROR_KINDS as readonly unknown[]).includes(value);
}

/** True for a value of {@link READING_STATES}. */
export function isReadingState(value: unknown): value is ReadingState {
  return (READING_STATES as readonly unknown[]).includes(value);
}

/** Why the latest attempts failed: the kind, the vendor's HTTP status, a message, since when. */
export interface ReadingError {
  readonly kind: ReadingErrorKind;
  /** The HTTP status the vendor answered (`http_status`, and codes seen with other kinds). */
  readonly httpStatus: number | null;
  /** A short message (at most {@link READING_MESSAGE_MAX} characters). */
  readonly message: string;
  /** First failed attempt of this run of the same kind (and HTTP status). */
  readonly since: EpochMs;
}

/** The last time the vendor's platform was detected again because its listed platform failed. */
export interface Redetection {
  readonly at: EpochMs;
  /** The platform that kept failing. */
  readonly from: Platform;
  /** What detection found; `unknown` = nothing matched, so statusd keeps reading `from`. */
  readonly to: Platform;
}

/** Everything stored about a vendor's readings, from which its reading health is computed. */
export interface ReadingFacts {
  /** The platform statusd reads the vendor as: the detected one if any, else the catalog's. */
  readonly platform: Platform;
  /** The catalog's platform. */
  readonly listedPlatform: Platform;
  /** What detection found (catalog `unknown` vendors, or after re-detection), or null. */
  readonly detectedPlatform: Platform | null;
  /** Set when the poller skipped the vendor because it has no adapter for its platform. */
  readonly unsupportedReason: string | null;
  readonly lastAttemptAt: EpochMs | null;
  readonly lastSuccessAt: EpochMs | null;
  readonly consecutiveFailures: number;
  readonly error: ReadingError | null;
  /** What the latest successful reading left out, at most {@link READING_NOTES_MAX}. */
  readonly notes: readonly string[];
  readonly redetection: Redetection | null;
}

/** A vendor's reading health as every surface shows it. */
export interface Reading
  extends
    Omit<ReadingFacts, "platform" | "listedPlatform" | "detectedPlatform" | "unsupportedReason"> {
  readonly state: ReadingState;
  /** One line in words, e.g. `failing: timeout since 2026-11-20 12:03 UTC (3 attempts)`. */
  readonly summary: string;
}

/** Most notes kept per reading. */
export const READING_NOTES_MAX = 10;
/** Longest note kept (characters). */
export const READING_NOTE_MAX_CHARS = 200;
/** Longest error message kept (characters). */
export const READING_MESSAGE_MAX = 300;

/**
 * Bounds a reading's notes: at most {@link READING_NOTES_MAX}, each cut to
 * {@link READING_NOTE_MAX_CHARS}; when more were given, the last one says how many were left out.
 */
export function boundNotes(notes: readonly string[]): string[] {
  const cut = (n: string) =>
    n.length > READING_NOTE_MAX_CHARS ? `${n.slice(0, READING_NOTE_MAX_CHARS - 1)}…` : n;
  if (notes.length <= READING_NOTES_MAX) return notes.map(cut);
  const kept = notes.slice(0, READING_NOTES_MAX - 1).map(cut);
  return [...kept, `… and ${notes.length - kept.length} more notes not kept`];
}

/** The intervals reading health is judged against (seconds, as configured). */
export interface ReadingPolicy {
  readonly stableSeconds: number;
}

/**
 * Instant before which a last success is stale: three stable intervals before `now`.
 * The same rule as the store's `?reading=` filter.
 */
export function staleBefore(now: EpochMs, policy: ReadingPolicy): EpochMs {
  return now - STALE_INTERVALS * policy.stableSeconds * 1000;
}

/**
 * The one-word state of a reading, first match wins:
 * `unsupported` (no machine-readable status: `html`, nothing detected, or no adapter),
 * `never_read` (never attempted), `failing` (the latest attempt failed),
 * `stale` (no success, or the last success older than three stable intervals),
 * else `fresh`.
 */
export function readingState(
  facts: ReadingFacts,
  now: EpochMs,
  policy: ReadingPolicy,
): ReadingState {
  if (isUnsupported(facts)) return "unsupported";
  if (facts.lastAttemptAt === null && facts.lastSuccessAt === null) return "never_read";
  if (facts.consecutiveFailures > 0) return "failing";
  if (facts.lastSuccessAt === null || facts.lastSuccessAt < staleBefore(now, policy)) {
    return "stale";
  }
  return "fresh";
}

function isUnsupported(facts: ReadingFacts): boolean {
  if (facts.unsupportedReason !== null) return true;
  if (facts.detectedPlatform === "unknown" && facts.listedPlatform === "unknown") return true;
  return UNREADABLE_PLATFORMS.includes(facts.platform);
}

/** `2026-11-20 12:03 UTC`. */
function clockText(t: EpochMs): string {
  return new Date(t).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

/** An error in words: `HTTP 503`, `timeout`, `bad payload`… */
export function errorWords(error: Pick<ReadingError, "kind" | "httpStatus">): string {
  if (error.kind === "http_status" && error.httpStatus !== null) return `HTTP ${error.httpStatus}`;
  return READING_ERROR_WORDS[error.kind];
}

/**
 * Why a vendor of `platform` cannot be read, in words: `html` pages publish no status
 * document; `unknown` after detection means nothing matched; any other platform has no
 * adapter in this build.
 */
export function unsupportedReasonOf(platform: Platform): string {
  if (platform === "html") {
    return "no machine-readable status: the vendor publishes its status only as a web page";
  }
  if (platform === "unknown") {
    return "no machine-readable status: detection found no status page platform statusd reads";
  }
  return `no adapter for platform "${platform}" in this statusd`;
}

/** The reading health of one vendor at `now` (pure; see {@link readingState}). */
export function readingOf(facts: ReadingFacts, now: EpochMs, policy: ReadingPolicy): Reading {
  const state = readingState(facts, now, policy);
  const attempts = facts.consecutiveFailures === 1
    ? "1 attempt"
    : `${facts.consecutiveFailures} attempts in a row`;
  const summary = state === "unsupported"
    ? `unsupported: ${facts.unsupportedReason ?? unsupportedReasonOf(facts.platform)}`
    : state === "never_read"
    ? "never read: waiting for the first poll"
    : state === "failing"
    ? (facts.error
      ? `failing: ${errorWords(facts.error)} since ${clockText(facts.error.since)} (${attempts})` +
        `: ${facts.error.message}`
      : `failing (${attempts})`)
    : state === "stale"
    ? (facts.lastSuccessAt === null
      ? "stale: never read successfully"
      : `stale: last read ${clockText(facts.lastSuccessAt)}, no poll since`)
    : `fresh: read ${clockText(facts.lastSuccessAt!)}`;
  return {
    state,
    summary,
    lastAttemptAt: facts.lastAttemptAt,
    lastSuccessAt: facts.lastSuccessAt,
    consecutiveFailures: facts.consecutiveFailures,
    error: state === "unsupported" ? null : facts.error,
    notes: facts.notes,
    redetection: facts.redetection,
  };
}

/**
 * Consecutive "platform misses" (the platform's endpoint answers 404/410, or a document of
 * another shape) after which the vendor's platform is detected again.
 */
export const REDETECT_AFTER_MISSES = 5;
/** Least time between two re-detections of one vendor. */
export const REDETECT_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * True when a failure suggests the vendor no longer uses the platform statusd reads it as:
 * the platform's endpoint is gone (404, 410) or answers a document of another shape
 * (`bad_payload`, `not_machine_readable`).
 */
export function isPlatformMiss(kind: ReadingErrorKind, httpStatus: number | null): boolean {
  if (kind === "http_status") return httpStatus === 404 || httpStatus === 410;
  return kind === "bad_payload" || kind === "not_machine_readable";
}

/**
 * True when a vendor whose latest poll was its `misses`-th platform miss in a row should be
 * detected again: at least {@link REDETECT_AFTER_MISSES} misses, and no re-detection in the
 * last {@link REDETECT_EVERY_MS}.
 */
export function redetectionDue(
  misses: number,
  lastRedetectedAt: EpochMs | null,
  now: EpochMs,
): boolean {
  return misses >= REDETECT_AFTER_MISSES &&
    (lastRedetectedAt === null || now - lastRedetectedAt >= REDETECT_EVERY_MS);
}
