/**
 * What sending one {@link Outgoing} came to. Transports (`outbound/send_http.ts`,
 * `outbound/send_mail.ts`) never throw: every failure is a result the worker can retry, pause or
 * show the owner.
 * @module
 */
import type { Outgoing } from "./channels/types.ts";

/** The outcome of one attempt. */
export interface SendResult {
  readonly ok: boolean;
  /** HTTP status or SMTP reply code (null: no answer — network error, timeout, refused address). */
  readonly status: number | null;
  /** The start of the answer (at most 500 characters), for the owner's delivery log. */
  readonly reply: string | null;
  readonly latencyMs: number;
  /** What the receiver asked to wait (HTTP `Retry-After`, seconds or a date), or null. */
  readonly retryAfterMs: number | null;
  /**
   * True when retrying cannot help: 4xx other than 408 and 429, a refused (private) address, a
   * rejected recipient (SMTP 5xx), settings that no longer validate.
   */
  readonly permanent: boolean;
  /** Why it failed in words ("timeout after 10 s", "refused address 10.0.0.5"), null when ok. */
  readonly error: string | null;
  /** Mail recipients the server refused for good (SMTP 5xx to RCPT TO): they bounced. */
  readonly bounced?: readonly string[];
}

/** Sends what a channel rendered. */
export interface Transport {
  send(outgoing: Outgoing): Promise<SendResult>;
}
