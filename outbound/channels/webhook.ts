/**
 * Generic webhook: the message as JSON, signed per the Standard Webhooks
 * specification (https://www.standardwebhooks.com/: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature` = `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`) with the route's
 * `whsec_` secret, by the `standardwebhooks` library. Receivers verify with the same library and
 * drop a repeated `webhook-id`.
 * @module
 */
import { Webhook } from "standardwebhooks";
import type { Channel } from "./types.ts";

/** A webhook route's settings. */
export interface WebhookSettings {
  readonly kind: "webhook";
  readonly url: string;
  readonly secret: string;
}

/** The `type` of the JSON body: `alert.<trigger>`, e.g. `alert.status`, `alert.recovered`. */
export const webhookChannel: Channel<WebhookSettings> = {
  kind: "webhook",
  render(message, settings, context) {
    const body = JSON.stringify({
      type: `alert.${message.trigger}`,
      id: context.eventId,
      timestamp: new Date(context.at).toISOString(),
      data: message,
    });
    const seconds = Math.floor(context.at / 1000);
    const signature = new Webhook(settings.secret).sign(
      context.eventId,
      new Date(seconds * 1000),
      body,
    );
    return {
      kind: "http",
      url: settings.url,
      headers: {
        "content-type": "application/json",
        "webhook-id": context.eventId,
        "webhook-timestamp": String(seconds),
        "webhook-signature": signature,
      },
      body,
    };
  },
  describe: (s) => maskedUrl(s.url),
};

/** The URL's origin and the start of its path, the rest masked. */
export function maskedUrl(url: string): string {
  try {
    // Scheme and host only: any part of a path may be the secret (Telegram's `/bot<TOKEN>/`).
    return `${new URL(url).origin}/•••`;
  } catch {
    return "•••";
  }
}
