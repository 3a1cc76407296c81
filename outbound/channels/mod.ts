/**
 * Every channel, by route kind: render a message for a route's settings and describe
 * the route without its secrets.
 * @module
 */
import type { AlertMessage, RouteSettingsData } from "../../domain/mod.ts";
import { toUri } from "../../lib/mod.ts";
import { discordChannel } from "./discord.ts";
import { emailChannel } from "./email.ts";
import { pagerDutyChannel } from "./pagerduty.ts";
import { slackChannel } from "./slack.ts";
import { teamsChannel } from "./teams.ts";
import type { Channel, Outgoing, RenderContext } from "./types.ts";
import { webhookChannel } from "./webhook.ts";

const CHANNELS = {
  webhook: webhookChannel,
  slack: slackChannel,
  discord: discordChannel,
  teams: teamsChannel,
  email: emailChannel,
  pagerduty: pagerDutyChannel,
} as const;

function channelOf(settings: RouteSettingsData): Channel<unknown> {
  return CHANNELS[settings.kind] as Channel<unknown>;
}

/** What a route of these settings sends for `message`. */
export function renderFor(
  settings: RouteSettingsData,
  message: AlertMessage,
  context: RenderContext,
): Outgoing {
  return channelOf(settings).render(withUris(message), settings, context);
}

/**
 * `message` with every link it carries an RFC 3986 URI (a vendor's `a|b>c d` as
 * `a%7Cb%3Ec%20d`), so each channel passes on links its service accepts.
 */
export function withUris(message: AlertMessage): AlertMessage {
  const links = Object.fromEntries(
    Object.entries(message.links).map(([k, v]) => [k, typeof v === "string" ? toUri(v) : v]),
  ) as AlertMessage["links"];
  return {
    ...message,
    service: message.service === null ? null : {
      ...message.service,
      vendorUrl: toUri(message.service.vendorUrl),
      statusdUrl: toUri(message.service.statusdUrl),
    },
    incident: message.incident === null ? null : {
      ...message.incident,
      url: message.incident.url === null ? null : toUri(message.incident.url),
    },
    links,
  };
}

/** The route's destination for lists and logs, secrets masked. */
export function describeRoute(settings: RouteSettingsData): string {
  return channelOf(settings).describe(settings);
}

export type { Channel, HttpOutgoing, MailOutgoing, Outgoing, RenderContext } from "./types.ts";
export { RouteSettings, SECRET_FIELDS } from "./settings.ts";
