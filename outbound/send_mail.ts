/**
 * Sends a rendered alert mail through the SMTP server of STATUSD_SMTP_URL with
 * nodemailer, from STATUSD_MAIL_FROM. The SMTP server is the self-hoster's own relay, so its
 * address is not checked. The reply code goes in `status`; 5xx is permanent (a rejected
 * recipient), 4xx and network errors are retried. Never throws; never logs the URL.
 * @module
 */
import type { Transporter } from "nodemailer";
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
  // nodemailer is loaded with the first mail: a server that sends none never holds it in
  // memory (6 MB of heap).
  let transport: Promise<Transporter> | null = null;
  const open = async () => {
    const { default: nodemailer } = await import("nodemailer");
    // Every phase is bounded, so a server that accepts and then stalls holds a delivery (and a
    // slot of the worker) for at most the timeout, not nodemailer's default ten minutes.
    return nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    }, { from: options.from });
  };
  let closed = false;
  return {
    async send(out) {
      const started = performance.now();
      try {
        if (closed) throw new Error("the mail sender is closed");
        transport ??= open();
        const info = await (await transport).sendMail({
          from: options.from,
          to: [...out.to],
          subject: out.subject,
          text: out.text,
          html: out.html,
          headers: out.headers,
        });
        const code = Number(/^(\d{3})/.exec(String(info.response ?? ""))?.[1] ?? 250);
        const bounced = (info.rejected ?? []).map((r) => String(r));
        return {
          ...(bounced.length ? { bounced } : {}),
          ok: true,
          status: code,
          reply: String(info.response ?? "").slice(0, 500) || null,
          latencyMs: performance.now() - started,
          retryAfterMs: null,
          permanent: false,
          error: null,
        };
      } catch (err) {
        const e = err as {
          responseCode?: number;
          response?: string;
          message?: string;
          rejected?: unknown[];
        };
        const code = typeof e.responseCode === "number" ? e.responseCode : null;
        // Every recipient refused (nodemailer's EENVELOPE): with a 5xx, they bounced.
        const bounced = code !== null && code >= 500 && Array.isArray(e.rejected)
          ? e.rejected.map((r) => String(r))
          : [];
        return {
          ...(bounced.length ? { bounced } : {}),
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
    close: () => {
      closed = true;
      transport?.then((t) => t.close(), () => {});
    },
  };
}
