/**
 * Email: a subject, a plain-text body and an HTML body (vendor text escaped), and
 * for subscriptions `List-Unsubscribe` with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`
 * (RFC 8058), sent through STATUSD_SMTP_URL by the worker.
 * @module
 */
import type { Channel } from "./types.ts";
import { cut, factLines, linkList } from "./_text.ts";

/** An email route's settings. */
export interface EmailSettings {
  readonly kind: "email";
  readonly to: readonly string[];
}

/** HTML escaping of text. */
export function htmlEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

export const emailChannel: Channel<EmailSettings> = {
  kind: "email",
  render(message, settings) {
    const facts = factLines(message);
    const links = linkList(message);
    const text = [
      message.summary,
      "",
      ...facts,
      "",
      ...links.map((l) => `${l.label}: ${l.url}`),
      "",
      `— statusd · ${message.sentBecause}`,
    ].join("\n");
    const html = `<!doctype html><html><body>` +
      `<h1 style="font-size:18px">${htmlEscape(message.summary)}</h1>` +
      facts.map((f) => `<p>${htmlEscape(f)}</p>`).join("") +
      `<p>${
        links.map((l) => `<a href="${htmlEscape(l.url)}">${htmlEscape(l.label)}</a>`).join(" · ")
      }</p>` +
      `<p style="color:#57606a">statusd · ${htmlEscape(message.sentBecause)}</p></body></html>`;
    const headers: Record<string, string> = {};
    if (message.links.unsubscribe) {
      headers["List-Unsubscribe"] = `<${message.links.unsubscribe}>`;
      headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
    }
    return {
      kind: "mail",
      to: settings.to,
      subject: cut(message.summary, 200),
      text,
      html,
      headers,
    };
  },
  describe: (s) => s.to.join(", "),
};
