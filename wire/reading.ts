/**
 * Reading health as statusd shows it outside: whether it can read a vendor's status page, and
 * if not, why and since when.
 * @module
 */
import { z } from "zod";
import {
  PLATFORMS,
  type Reading,
  READING_ERROR_KINDS,
  READING_NOTES_MAX,
  READING_STATES,
  toIso,
} from "../domain/mod.ts";
import { Timestamp } from "./basics.ts";

/** A reading state, with what each means. */
export const ReadingStateSchema = z.enum(READING_STATES).meta({
  description: "Whether statusd can read the vendor, in one word:\n" +
    "- `fresh`: the latest poll succeeded and the last good reading is recent.\n" +
    "- `stale`: no failure recorded, but the last good reading is older than three stable poll " +
    "intervals (15 min by default): statusd has not polled it since (poller stopped or behind).\n" +
    "- `failing`: the latest poll failed; `error` says why and since when. The service keeps " +
    "its last known status for three poll intervals, then reads UNKNOWN.\n" +
    "- `unsupported`: the vendor publishes no machine-readable status statusd can read (platform " +
    "`html`, or detection found none); `summary` says why. Its status stays UNKNOWN.\n" +
    "- `never_read`: statusd has not polled it yet.",
  example: "failing",
});

/** Why a reading failed. */
export const ReadingErrorKindSchema = z.enum(READING_ERROR_KINDS).meta({
  description: "Why the latest polls failed:\n" +
    "- `network`: no connection (DNS, refused, reset).\n" +
    "- `timeout`: no complete answer within the fetch timeout.\n" +
    "- `http_status`: the vendor answered an HTTP error status (in `httpStatus`).\n" +
    "- `too_large`: the body exceeded the size cap.\n" +
    "- `redirect_loop`: a redirect loop or too many redirects.\n" +
    "- `refused_address`: the URL, a redirect or its DNS answer pointed at a loopback or " +
    "private address the self-hoster did not allow.\n" +
    "- `not_machine_readable`: not a status document (binary, or an HTML page where JSON or a " +
    "feed was due).\n" +
    "- `bad_payload`: a document of the wrong shape; the message names the path.\n" +
    "- `parse_error`: the document could not be decoded at all (not JSON, malformed XML).",
  example: "timeout",
});

/** Reading health of one vendor. */
export const ReadingSchema = z.object({
  state: ReadingStateSchema,
  summary: z.string().meta({
    description: "The reading in one line of words",
    example: "failing: timeout since 2026-11-20 12:03 UTC (3 attempts in a row): no complete " +
      "answer in time",
  }),
  lastAttemptAt: Timestamp.nullable().meta({
    description: "Last poll of the vendor, successful or not; null before the first",
  }),
  lastSuccessAt: Timestamp.nullable().meta({
    description: "Last successful reading (a new document or an unchanged one); null if none",
  }),
  consecutiveFailures: z.number().int().meta({
    description: "Polls that failed in a row since the last success (0 when the latest worked)",
    example: 3,
  }),
  error: z.object({
    kind: ReadingErrorKindSchema,
    httpStatus: z.number().int().nullable().meta({
      description: "HTTP status the vendor answered, when it answered one",
      example: 503,
    }),
    message: z.string().meta({ description: "What went wrong, in a few words" }),
    since: Timestamp.meta({
      description: "First failed poll of this run of the same kind (and HTTP status)",
    }),
  }).nullable().meta({
    description: "Why the latest polls failed; null unless the state is `failing`",
  }),
  notes: z.array(z.string()).meta({
    description: `What the latest successful reading left out (a malformed item dropped, a ` +
      `list capped), with the path in the vendor's document; at most ${READING_NOTES_MAX}`,
  }),
  redetection: z.object({
    at: Timestamp,
    from: z.enum(PLATFORMS).meta({ description: "The platform that kept failing" }),
    to: z.enum(PLATFORMS).meta({
      description: "What detection found; `unknown` when nothing matched (statusd keeps " +
        "reading the vendor as `from`)",
    }),
  }).nullable().meta({
    description: "The last time statusd detected the vendor's platform again because its " +
      "platform's endpoint kept failing (404, or a document of another shape, 5 polls in a " +
      "row; at most once a day); null if never",
  }),
}).meta({
  description: "Reading health: whether statusd can read the vendor's status page, and if not, " +
    "why and since when",
});

/** Reading health as JSON. */
export function readingJson(r: Reading): z.infer<typeof ReadingSchema> {
  return {
    state: r.state,
    summary: r.summary,
    lastAttemptAt: toIso(r.lastAttemptAt),
    lastSuccessAt: toIso(r.lastSuccessAt),
    consecutiveFailures: r.consecutiveFailures,
    error: r.error && {
      kind: r.error.kind,
      httpStatus: r.error.httpStatus,
      message: r.error.message,
      since: toIso(r.error.since),
    },
    notes: [...r.notes],
    redetection: r.redetection &&
      { at: toIso(r.redetection.at), from: r.redetection.from, to: r.redetection.to },
  };
}
