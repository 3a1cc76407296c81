/**
 * Slack incoming webhook: Block Kit — a header (plain text, ≤ 150 characters), a
 * section of facts (mrkdwn, ≤ 3,000 characters) and a context of links, with `text` as the
 * notification fallback (https://api.slack.com/reference/block-kit/blocks). Vendor text is
 * escaped for mrkdwn (`&`, `<`, `>`), so it can neither link nor mention anyone.
 * @module
 */
import type { Channel } from "./types.ts";
import { cut, factLines, linkList } from "./_text.ts";
import { maskedUrl } from "./webhook.ts";

/** A Slack route's settings. */
export interface SlackSettings {
  readonly kind: "slack";
  readonly url: string;
}

/** Slack's mrkdwn escaping of control characters. */
export function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export const slackChannel: Channel<SlackSettings> = {
  kind: "slack",
  render(message, settings) {
    const facts = factLines(message).map(slackEscape).join("\n");
    const links = linkList(message)
      .map((l) => `<${l.url.replace(/[|<> ]/g, encodeURIComponent)}|${slackEscape(l.label)}>`)
      .join(" · ");
    const blocks: unknown[] = [
      {
        type: "header",
        text: { type: "plain_text", text: cut(message.summary, 150), emoji: false },
      },
    ];
    if (facts) blocks.push({ type: "section", text: { type: "mrkdwn", text: cut(facts, 3000) } });
    if (links) {
      blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: cut(links, 3000) }] });
    }
    blocks.push({
      type: "context",
      elements: [{
        type: "mrkdwn",
        text: cut(slackEscape(`statusd · ${message.sentBecause}`), 3000),
      }],
    });
    return {
      kind: "http",
      url: settings.url,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: slackEscape(cut(message.summary, 3000)), blocks }),
    };
  },
  describe: (s) => maskedUrl(s.url),
};
