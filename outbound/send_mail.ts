/**
 * Sends a rendered alert mail (issue #13) through the SMTP server of STATUSD_SMTP_URL with
 * nodemailer, from STATUSD_MAIL_FROM. The SMTP server is the self-hoster's own relay, so its
 * address is not checked. The reply code goes in `status`; 5xx is permanent (a rejected
 * recipient), 4xx and network errors are retried. Never throws; never logs the URL.
 * @module
 */
import nodemailer from "nodemailer";
import type { MailOutgoing } from "./channels/mod.ts";
import type { SendResult } from "./transport.ts";

/** Sends mail; `close()` when done. */
export interface MailSender {
  send(out: MailOutgoing): Promise<SendResult>;
  close(): void;
}

/** A sender over one pooled SMTP transport. */
export function createMailSender(
  options: { readonly smtpUrl: string; readonly from: string; readonly timeoutMs: number },
): MailSender {
  const transport = nodemailer.createTransport(options.smtpUrl, {
    from: options.from,
  });
  transport.set("connectionTimeout", options.timeoutMs);
  return {
    async send(out) {
      const started = performance.now();
      try {
        const info = await transport.sendMail({
          from: options.from,
          to: [...out.to],
          subject: out.subject,
          text: out.text,
          html: out.html,
          headers: out.headers,
        });
        const code = Number(/^(\d{3})/.exec(String(info.response ?? ""))?.[1] ?? 250);
        return {
          ok: true,
          status: code,
          reply: String(info.response ?? "").slice(0, 500) || null,
          latencyMs: performance.now() - started,
          retryAfterMs: null,
          permanent: false,
          error: null,
        };
      } catch (err) {
        const e = err as { responseCode?: number; response?: string; message?: string };
        const code = typeof e.responseCode === "number" ? e.responseCode : null;
        return {
          ok: false,
          status: code,
          reply: e.response ? String(e.response).slice(0, 500) : null,
          latencyMs: performance.now() - started,
          retryAfterMs: null,
          permanent: code !== null && code >= 500,
          error: `SMTP: ${String(e.message ?? err).slice(0, 200)}`,
        };
      }
    },
    close: () => transport.close(),
  };
}
