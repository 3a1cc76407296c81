/**
 * Discord webhook: one embed — title ≤ 256, description ≤ 4,096, ≤ 25 fields (name
 * ≤ 256, value ≤ 1,024), footer ≤ 2,048, all text ≤ 6,000 — coloured by level, and
 * `allowed_mentions: {parse: []}` so vendor text can never ping @everyone or a role
 * (https://discord.com/developers/docs/resources/webhook#execute-webhook).
 * @module
 */
import type { Channel } from "./types.ts";
import { cut, factLines, levelColour, linkList } from "./_text.ts";
import { maskedUrl } from "./webhook.ts";

/** A Discord route's settings. */
export interface DiscordSettings {
  readonly kind: "discord";
  readonly url: string;
}

/** Markdown and mention characters made literal. */
export function discordEscape(text: string): string {
  return text.replace(/([\\*_~`|>\[\]()#@:-])/g, "\\$1");
}

export const discordChannel: Channel<DiscordSettings> = {
  kind: "discord",
  render(message, settings, context) {
    const facts = factLines(message).map(discordEscape).join("\n");
    const links = linkList(message).slice(0, 6).map((l) => ({
      name: cut(l.label, 256),
      value: cut(l.url, 1024),
      inline: true,
    }));
    const embed = {
      title: cut(message.summary, 256),
      description: cut(facts, 3500),
      color: levelColour(message.level),
      fields: links,
      footer: { text: cut(`statusd · ${message.sentBecause}`, 200) },
      timestamp: new Date(context.at).toISOString(),
      ...(message.service ? { url: message.service.statusdUrl } : {}),
    };
    return {
      kind: "http",
      url: settings.url,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        username: "statusd",
        allowed_mentions: { parse: [] },
        embeds: [embed],
      }),
    };
  },
  describe: (s) => maskedUrl(s.url),
};
