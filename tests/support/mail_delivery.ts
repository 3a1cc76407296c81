/**
 * Delivering what a test's store queued, by email to a real SMTP server on loopback (and over
 * HTTP to nowhere private): the outbox worker run once per `deliver()`.
 * @module
 */
import type { AppContext } from "../../app/mod.ts";
import { silentLogger } from "../../log.ts";
import { createHttpSender } from "../../outbound/send_http.ts";
import { createMailSender } from "../../outbound/send_mail.ts";
import { createDeliveryWorker } from "../../outbound/worker.ts";
import { type SmtpRig, startSmtp } from "./smtp.ts";

/** The SMTP server, a way to deliver what is queued, and the teardown. */
export interface MailDelivery {
  readonly smtp: SmtpRig;
  /** Runs the delivery worker over everything due now. */
  deliver(): Promise<void>;
  close(): Promise<void>;
}

/** Starts an SMTP server and a delivery worker over `ctx`'s store. */
export async function mailDelivery(ctx: AppContext): Promise<MailDelivery> {
  const smtp = await startSmtp();
  const mail = createMailSender({
    smtpUrl: smtp.url,
    from: "statusd@example.com",
    timeoutMs: 5_000,
  });
  const http = createHttpSender({ timeoutMs: 1_000, allowPrivate: { all: false, ranges: [] } });
  const worker = createDeliveryWorker({
    store: ctx.store,
    http,
    mail,
    clock: ctx.clock,
    log: silentLogger,
    instanceId: "t",
  });
  return {
    smtp,
    async deliver() {
      await worker.runOnce();
      await worker.stop();
    },
    async close() {
      http.close();
      mail.close();
      await smtp.close();
    },
  };
}
