/**
 * Microsoft Teams workflow webhook: a message with one Adaptive Card attachment
 * (`contentType: application/vnd.microsoft.card.adaptive`, schema 1.4) — a title, the facts as
 * text blocks and an `Action.OpenUrl` per link
 * (https://learn.microsoft.com/microsoftteams/platform/webhooks-and-connectors/how-to/connectors-using).
 * Adaptive Card text is Markdown-ish, so vendor text is escaped.
 * @module
 */
import type { Channel } from "./types.ts";
import { cut, factLines, linkList } from "./_text.ts";
import { maskedUrl } from "./webhook.ts";

/** A Teams route's settings. */
export interface TeamsSettings {
  readonly kind: "teams";
  readonly url: string;
}

function teamsEscape(text: string): string {
  return text.replace(/([\\*_~`#>\[\]()-])/g, "\\$1");
}

export const teamsChannel: Channel<TeamsSettings> = {
  kind: "teams",
  render(message, settings) {
    const card = {
      type: "AdaptiveCard",
      $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
      version: "1.4",
      body: [
        {
          type: "TextBlock",
          text: teamsEscape(cut(message.summary, 200)),
          weight: "Bolder",
          size: "Medium",
          wrap: true,
          color: message.level === "OPERATIONAL" ? "Good" : "Attention",
        },
        ...factLines(message).map((line) => ({
          type: "TextBlock",
          text: teamsEscape(line),
          wrap: true,
        })),
        {
          type: "TextBlock",
          text: teamsEscape(cut(`statusd · ${message.sentBecause}`, 200)),
          isSubtle: true,
          size: "Small",
          wrap: true,
        },
      ],
      actions: linkList(message).slice(0, 5).map((l) => ({
        type: "Action.OpenUrl",
        title: cut(l.label, 60),
        url: l.url,
      })),
    };
    return {
      kind: "http",
      url: settings.url,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        type: "message",
        attachments: [{
          contentType: "application/vnd.microsoft.card.adaptive",
          contentUrl: null,
          content: card,
        }],
      }),
    };
  },
  describe: (s) => maskedUrl(s.url),
};
