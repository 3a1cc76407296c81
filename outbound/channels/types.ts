/**
 * What a channel is: a pure renderer from an {@link AlertMessage} and a route's
 * settings to the one request or mail it sends. No I/O, no clock (the send time comes in), no
 * logging — like `ingest/adapters/`. The worker (`outbound/worker.ts`) sends what it returns.
 * @module
 */
import type { AlertMessage, ChannelKind } from "../../domain/alert.ts";
import type { EpochMs } from "../../domain/time.ts";

/** An HTTP POST to make. */
export interface HttpOutgoing {
  readonly kind: "http";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A mail to send through STATUSD_SMTP_URL, from STATUSD_MAIL_FROM. */
export interface MailOutgoing {
  readonly kind: "mail";
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** Extra headers, e.g. `List-Unsubscribe` and `List-Unsubscribe-Post`. */
  readonly headers: Readonly<Record<string, string>>;
}

/** What a channel asks the worker to send. */
export type Outgoing = HttpOutgoing | MailOutgoing;

/** What a render knows besides the message: the delivery's stable id and the send time. */
export interface RenderContext {
  /** The delivery id (`webhook-id`, event id receivers dedupe on). */
  readonly eventId: string;
  readonly at: EpochMs;
}

/** One destination kind: how it renders, and how its settings are shown without secrets. */
export interface Channel<Settings> {
  readonly kind: ChannelKind;
  render(message: AlertMessage, settings: Settings, context: RenderContext): Outgoing;
  /** The destination for lists and logs, secrets masked (scheme and host only, e.g. `https://hooks.slack.com/•••`). */
  describe(settings: Settings): string;
}
