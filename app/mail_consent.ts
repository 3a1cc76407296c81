/**
 * Mail only to those who asked for it. Every address an account's email route names, and every
 * address a subscription follows on, confirms before statusd sends it anything but the request
 * to confirm (double opt-in, per account); at most {@link CONFIRMATIONS_PER_ADDRESS}`.limit`
 * such requests go to one address a day, from all accounts together; and an address that
 * unsubscribed or bounced is suppressed for every account until its owner confirms again.
 * @module
 */
import {
  type AttemptRule,
  CONSENT_ROUTE_PREFIX,
  consentSubject,
  DAY_MS,
  mailAddress,
  type MailSuppression,
} from "../domain/mod.ts";
import { hashToken, randomToken } from "./_tokens.ts";
import { noticeMessage, queueNotice } from "./_notice.ts";
import type { AppContext } from "./context.ts";

/** Requests to confirm one address may get per day, from every account together. */
export const CONFIRMATIONS_PER_ADDRESS: AttemptRule = {
  limit: 3,
  windowMs: DAY_MS,
  maxKeys: 100_000,
};
const CONFIRMATION_SCOPE = "mail-confirmation";

/** Where one address stands with an account, as a route's recipients show it. */
export type RecipientState = "confirmed" | "pending" | "suppressed";

/** Words for a suppression, e.g. for an error naming the address. */
export function suppressionWords(address: string, s: MailSuppression): string {
  const when = new Date(s.at).toISOString().slice(0, 10);
  return s.reason === "bounced"
    ? `mail to ${address} bounced on ${when}; statusd sends it nothing until its owner confirms again`
    : `${address} unsubscribed from statusd mail on ${when}; statusd sends it nothing until its ` +
      "owner confirms again";
}

/**
 * Takes one of the address's confirmation mails for today: 0 when taken, otherwise the ms until
 * the address may be asked again (it already had its {@link CONFIRMATIONS_PER_ADDRESS}).
 */
export function takeConfirmation(ctx: AppContext, address: string): Promise<number> {
  return ctx.store.attempts.take(
    CONFIRMATION_SCOPE,
    mailAddress(address),
    CONFIRMATIONS_PER_ADDRESS,
    ctx.clock.now(),
  );
}

/** The states of `addresses` for `accountId`, in order. */
export async function recipientStates(
  ctx: AppContext,
  accountId: string,
  addresses: readonly string[],
): Promise<{ address: string; state: RecipientState }[]> {
  const list = addresses.map(mailAddress);
  const [consents, suppressed] = await Promise.all([
    ctx.store.mail.consents(accountId, list),
    ctx.store.mail.suppressions(list),
  ]);
  return list.map((address) => ({
    address,
    state: suppressed.has(address)
      ? "suppressed"
      : consents.get(address) === "confirmed"
      ? "confirmed"
      : "pending",
  }));
}

/**
 * Asks each address not yet confirmed for `accountId` to confirm (a mail with a link, within
 * the per-address daily limit); confirmed and suppressed addresses are left alone.
 */
export async function askConsent(
  ctx: AppContext,
  account: { readonly id: string; readonly name: string },
  addresses: readonly string[],
  purpose: string,
): Promise<void> {
  for (const { address, state } of await recipientStates(ctx, account.id, addresses)) {
    if (state !== "pending" || await takeConfirmation(ctx, address) > 0) continue;
    const token = randomToken(24);
    const now = ctx.clock.now();
    await ctx.store.mail.requestConsent(account.id, address, hashToken(token), now);
    const deliveryId = `dlv_consent_${randomToken(12)}`;
    const message = noticeMessage({
      notificationId: `consent_${deliveryId}`,
      trigger: "notice",
      summary: "Confirm alert mail from statusd",
      advice: `The statusd account "${account.name.slice(0, 100)}" asked to send ${purpose} ` +
        "to this address. Confirm to receive it; ignore this mail and nothing more is sent.",
      links: { confirm: `${ctx.settings.publicUrl}/mail/confirm/${token}` },
      sentBecause: "a request to confirm this address",
      at: now,
    });
    await queueNotice(ctx, {
      id: deliveryId,
      accountId: account.id,
      routeId: `${CONSENT_ROUTE_PREFIX}${hashToken(address).slice(0, 24)}`,
      source: { kind: "notice", id: null },
      subject: consentSubject(address),
      message,
    });
  }
}

/** Confirms the address a consent link names (once); false when the link is not valid. */
export async function confirmMailByLink(ctx: AppContext, token: string): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return false;
  return (await ctx.store.mail.confirm(hashToken(token), ctx.clock.now())) !== null;
}
