/**
 * Subscriptions: follow a monitor, group or board and receive every status change,
 * incident update and maintenance notice on one channel — an email address or one of the
 * account's routes. An email subscription sends nothing but its confirmation until the address
 * confirms (double opt-in, the link works once); every message carries a one-click unsubscribe
 * link (`List-Unsubscribe` in mail). Changing needs `monitors:write`, listing `monitors:read`.
 * @module
 */
import { z } from "zod";
import {
  type AttemptRule,
  type BoardRecord,
  DAY_MS,
  type EpochMs,
  Forbidden,
  HOUR_MS,
  InvalidRequest,
  mailAddress,
  type MailSuppression,
  NotFound,
  RateLimited,
  RECONFIRM_DELIVERY_PREFIX,
  type SubscriptionRecord,
} from "../domain/mod.ts";
import { hashToken, randomToken, sameText } from "./_tokens.ts";
import { accountDocVerbs } from "./_account_docs.ts";
import { noticeMessage, queueNotice } from "./_notice.ts";
import { everyRecord } from "./_every.ts";
import type { AppContext } from "./context.ts";
import { parse, READ_MONITORS, WRITE_MONITORS } from "./monitors.ts";
import { suppressionWords, takeConfirmation } from "./mail_consent.ts";
import { type Access, type Caller, callerAccount } from "./policy.ts";

/** Subscriptions an account may keep (pending confirmations do not count). */
export const SUBSCRIPTION_LIMIT = 500;
/** A subscription not confirmed within this time is gone (its link no longer works). */
export const PENDING_EXPIRY_MS = 48 * HOUR_MS;
/** Confirmations one board's public form may have waiting at once. */
export const PENDING_PER_BOARD = 100;
/** The route id of deliveries to a subscription's own address. */
export const SUBSCRIPTION_ROUTE_PREFIX = "sub_";

const Id = z.string().trim().min(1).max(100);
const NewInput = z.object({
  target: z.object({ kind: z.enum(["monitor", "group", "board"]), id: Id }).strict(),
  email: z.email().max(254).optional(),
  route: Id.optional(),
}).strict();

/** A subscription as shown (no tokens). */
export interface SubscriptionView {
  readonly id: string;
  readonly target: SubscriptionRecord["target"];
  readonly channel: SubscriptionRecord["channel"];
  readonly state: SubscriptionRecord["state"];
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly version: number;
}

function view(s: SubscriptionRecord): SubscriptionView {
  return {
    id: s.id,
    target: s.target,
    channel: s.channel,
    state: s.state,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    version: s.version,
  };
}

/** Changing subscriptions: as monitors, with its own refusal for members. */
export const WRITE_SUBSCRIPTIONS: Access = {
  ...WRITE_MONITORS,
  role: {
    least: "ADMIN",
    refusal: "Only the account's owners and admins can change its subscriptions",
  },
};

/** The unsubscribe link of a subscription. */
export function unsubscribeLink(ctx: AppContext, s: SubscriptionRecord): string {
  return `${ctx.settings.publicUrl}/subscriptions/unsubscribe/${s.id}.${s.unsubscribeToken}`;
}

/**
 * Follows a monitor, group or board on an address (a confirmation mail goes first; nothing
 * else until it is confirmed) or on one of the account's routes (active at once).
 */
export async function createSubscription(
  ctx: AppContext,
  who: Caller,
  input: unknown,
): Promise<SubscriptionView> {
  const account = callerAccount(who, WRITE_SUBSCRIPTIONS);
  const r = parse(NewInput, input);
  if ((r.email === undefined) === (r.route === undefined)) {
    throw new InvalidRequest([{
      parameter: "email",
      message: "give an email or a route, not both",
    }]);
  }
  const t = r.target;
  const exists = t.kind === "monitor"
    ? await ctx.store.monitors.get(account.id, t.id)
    : t.kind === "group"
    ? await ctx.store.groups.get(account.id, t.id)
    : await ctx.store.boards.get(account.id, t.id);
  if (exists === null) {
    throw new InvalidRequest([{
      parameter: "target.id",
      message: `no ${t.kind} "${t.id}" in this account`,
    }]);
  }
  if (r.route && await ctx.store.alertRoutes.get(account.id, r.route) === null) {
    throw new InvalidRequest([{
      parameter: "route",
      message: `no alert route "${r.route}" in this account`,
    }]);
  }
  return await open(
    ctx,
    account.id,
    t,
    r.email ? { kind: "email", email: r.email } : { kind: "route", routeId: r.route! },
  );
}

/** Asking an address that unsubscribed or bounced to confirm again: once a week at most. */
export const RECONFIRMATIONS_PER_ADDRESS: AttemptRule = {
  limit: 1,
  windowMs: 7 * DAY_MS,
  maxKeys: 100_000,
};

/** True for a pending subscription whose confirmation has expired at `now`. */
function expired(s: SubscriptionRecord, now: EpochMs): boolean {
  return s.state === "pending_confirmation" && now - s.createdAt >= PENDING_EXPIRY_MS;
}

/**
 * A reader of a public board (as `boardBySlug` gave it to an anonymous caller) asks for its news
 * by email (the form on `/b/{slug}`): a pending subscription of the board's account, confirmed by
 * the mail's link within 48 hours (double opt-in). The form answers alike whatever the address's
 * history: one that already follows the board or waits to confirm, one past its confirmation
 * mails for the day, and one that unsubscribed or bounced (asked to confirm again by mail, once a
 * week at most, with the reason) all get the same answer. Pending confirmations never count
 * toward the owner's limit; a board has at most {@link PENDING_PER_BOARD} waiting (past it:
 * RateLimited, saying nothing of the account). A private board is a 404.
 */
export async function subscribeToPublicBoard(
  ctx: AppContext,
  board: Pick<BoardRecord, "id" | "accountId" | "slug" | "public"> & { title?: string },
  email: string,
): Promise<void> {
  if (!board.public) throw new NotFound("board", board.slug);
  const address = parse(z.object({ email: z.email().max(254) }), { email: email.trim() }).email;
  if (!ctx.settings.mailEnabled) {
    throw new InvalidRequest([{
      parameter: "email",
      message: "this statusd sends no mail: the self-hoster has not set up a mail server",
    }]);
  }
  const now = ctx.clock.now();
  for await (const s of everyRecord(ctx.store.subscriptions.list, board.accountId)) {
    if (
      s.target.kind === "board" && s.target.id === board.id && s.channel.kind === "email" &&
      mailAddress(s.channel.email) === mailAddress(address) && s.state !== "unsubscribed" &&
      !expired(s, now)
    ) return;
  }
  if (await takeConfirmation(ctx, address) > 0) return;
  const suppressed = (await ctx.store.mail.suppressions([mailAddress(address)]))
    .get(mailAddress(address)) ?? null;
  if (
    suppressed && await ctx.store.attempts.take(
        "mail-reconfirmation",
        mailAddress(address),
        RECONFIRMATIONS_PER_ADDRESS,
        now,
      ) > 0
  ) return;
  const confirm = randomToken(24);
  const made = await ctx.store.subscriptions.openPending({
    id: `${SUBSCRIPTION_ROUTE_PREFIX}${randomToken(12)}`,
    accountId: board.accountId,
    target: { kind: "board", id: board.id },
    channel: { kind: "email", email: address },
    state: "pending_confirmation",
    confirmHash: hashToken(confirm),
    unsubscribeToken: randomToken(24),
    createdAt: now,
  }, { maxPending: PENDING_PER_BOARD, expiryCutoff: now - PENDING_EXPIRY_MS });
  if (made === "busy") {
    throw new RateLimited(
      3600,
      "This page takes no more subscriptions for now; try again in an hour",
    );
  }
  await askToConfirm(ctx, made, confirm, board.title ?? null, suppressed);
}

/** Opens a subscription of `accountId` to `t` on `channel` (an address is asked first). */
async function open(
  ctx: AppContext,
  accountId: string,
  t: SubscriptionRecord["target"],
  channel: SubscriptionRecord["channel"],
): Promise<SubscriptionView> {
  const r = channel.kind === "email" ? { email: channel.email } : { route: channel.routeId };
  if (r.email && !ctx.settings.mailEnabled) {
    throw new InvalidRequest([{
      parameter: "email",
      message: "email subscriptions need a mail server: the self-hoster sets STATUSD_SMTP_URL",
    }]);
  }
  if (r.email) {
    const address = mailAddress(r.email);
    const suppressed = (await ctx.store.mail.suppressions([address])).get(address);
    if (suppressed) {
      throw new InvalidRequest([{
        parameter: "email",
        message: suppressionWords(r.email, suppressed),
      }]);
    }
    const wait = await takeConfirmation(ctx, r.email);
    if (wait > 0) throw new RateLimited(Math.ceil(wait / 1000));
  }
  const confirm = r.email ? randomToken(24) : null;
  const now = ctx.clock.now();
  // Pending confirmations do not count toward the limit (the store counts the others).
  const made = await ctx.store.subscriptions.create({
    id: `${SUBSCRIPTION_ROUTE_PREFIX}${randomToken(12)}`,
    accountId,
    target: t,
    channel,
    state: r.email ? "pending_confirmation" : "active",
    confirmHash: confirm ? hashToken(confirm) : null,
    unsubscribeToken: randomToken(24),
    createdAt: now,
  }, SUBSCRIPTION_LIMIT);
  if (made === "limit" || made === "slug_taken") {
    throw new Forbidden(`This account already has ${SUBSCRIPTION_LIMIT} subscriptions`);
  }
  if (confirm) await askToConfirm(ctx, made, confirm, null, null);
  return view(made);
}

/**
 * Queues the mail asking the address of pending subscription `s` to confirm (valid 48 hours); to
 * an address that unsubscribed or bounced (`suppressed`), it says so and is the one mail it gets.
 */
async function askToConfirm(
  ctx: AppContext,
  s: SubscriptionRecord,
  token: string,
  title: string | null,
  suppressed: MailSuppression | null,
): Promise<void> {
  const now = ctx.clock.now();
  const what = title === null ? `a ${s.target.kind}` : `"${title.slice(0, 120)}"`;
  const when = suppressed === null ? "" : new Date(suppressed.at).toISOString().slice(0, 10);
  const history = suppressed === null
    ? ""
    : suppressed.reason === "bounced"
    ? ` Mail to this address bounced on ${when}: statusd sends it nothing more unless you confirm.`
    : ` This address unsubscribed from statusd mail on ${when}: statusd sends it nothing more ` +
      "unless you confirm.";
  const message = noticeMessage({
    notificationId: `confirm_${s.id}`,
    trigger: "notice",
    summary: title === null
      ? "Confirm your statusd subscription"
      : `Confirm your subscription to ${title.slice(0, 120)}`,
    advice: `Someone asked to send the status news of ${what} to this address.${history} ` +
      "Confirm within 48 hours to receive them; ignore this mail and nothing more is sent.",
    links: {
      confirm: `${ctx.settings.publicUrl}/subscriptions/confirm/${s.id}.${token}`,
      unsubscribe: unsubscribeLink(ctx, s),
    },
    sentBecause: `subscription ${s.id}`,
    at: now,
  });
  await queueNotice(ctx, {
    id: `${suppressed === null ? "dlv_confirm_" : RECONFIRM_DELIVERY_PREFIX}${s.id}`,
    accountId: s.accountId,
    routeId: s.id,
    source: { kind: "notice", id: s.id },
    subject: `subscription:${s.id}`,
    message,
  });
}

function split(link: string): { id: string; token: string } | null {
  const m = /^(sub_[A-Za-z0-9_-]{1,40})\.([A-Za-z0-9_-]{16,64})$/.exec(link);
  return m ? { id: m[1]!, token: m[2]! } : null;
}

/**
 * Confirms an address (the link works once, within 48 hours); false when the link is not (or no
 * longer) valid, "full" when the account keeps as many subscriptions as it may.
 */
export async function confirmByLink(ctx: AppContext, link: string): Promise<boolean | "full"> {
  const p = split(link);
  if (!p) return false;
  const s = await ctx.store.subscriptions.byId(p.id);
  if (!s || s.state !== "pending_confirmation" || !s.confirmHash) return false;
  if (!sameText(hashToken(p.token), s.confirmHash)) return false;
  const now = ctx.clock.now();
  if (expired(s, now)) return false;
  const done = await ctx.store.subscriptions.confirm(s.accountId, s.id, now, SUBSCRIPTION_LIMIT);
  if (done === "limit") return "full";
  const confirmed = done !== null;
  // The owner asked for this mail: an earlier unsubscribe or bounce no longer stands.
  if (confirmed && s.channel.kind === "email") {
    await ctx.store.mail.unsuppress(mailAddress(s.channel.email));
  }
  return confirmed;
}

/** Unsubscribes (one click); false when the link is not valid. */
export async function unsubscribeByLink(ctx: AppContext, link: string): Promise<boolean> {
  const p = split(link);
  if (!p) return false;
  const s = await ctx.store.subscriptions.byId(p.id);
  if (!s || !sameText(p.token, s.unsubscribeToken)) return false;
  if (s.state === "unsubscribed") return true;
  const done = await ctx.store.subscriptions.update(
    s.accountId,
    s.id,
    {
      state: "unsubscribed",
      confirmHash: null,
    },
    ctx.clock.now(),
    null,
  );
  // No account may mail this address again (not even a request to confirm) until its owner
  // confirms something themselves.
  if (s.channel.kind === "email") {
    await ctx.store.mail.suppress(mailAddress(s.channel.email), {
      reason: "unsubscribed",
      at: ctx.clock.now(),
    });
  }
  return done !== null;
}

/**
 * Undoes an unsubscribe from the same link (only the address's owner has it): the
 * subscription is active again and the address no longer suppressed. False when the link is
 * not valid or the subscription was not unsubscribed.
 */
export async function resubscribeByLink(ctx: AppContext, link: string): Promise<boolean> {
  const p = split(link);
  if (!p) return false;
  const s = await ctx.store.subscriptions.byId(p.id);
  if (!s || !sameText(p.token, s.unsubscribeToken) || s.state !== "unsubscribed") return false;
  const done = await ctx.store.subscriptions.update(
    s.accountId,
    s.id,
    { state: "active", confirmHash: null },
    ctx.clock.now(),
    null,
  );
  if (done !== null && typeof done === "object" && s.channel.kind === "email") {
    await ctx.store.mail.unsuppress(mailAddress(s.channel.email));
  }
  return done !== null && typeof done === "object";
}

const verbs = accountDocVerbs<SubscriptionRecord, SubscriptionView>({
  noun: "subscription",
  docs: (store) => store.subscriptions,
  read: READ_MONITORS,
  write: WRITE_SUBSCRIPTIONS,
  views: (_ctx, _account, subs) => Promise.resolve(subs.map(view)),
});
/** The account's subscriptions, oldest first. */
export const listSubscriptions = verbs.list;
/** One of the account's subscriptions. */
export const getSubscription = verbs.get;
/** Deletes a subscription (`ifVersion`: the version the caller saw, or null). */
export const deleteSubscription = verbs.remove;
