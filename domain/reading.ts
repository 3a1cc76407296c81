/**
 * Reading health: why statusd could not read a vendor, and one summary state per vendor.
 * These names are the wire spelling used in the fetch log, REST, MCP, the CLI and pages.
 * @module
 */

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
