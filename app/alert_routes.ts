/**
 * Alert routes and delivered alert events: named destinations an account's alerts go
 * to (webhook, Slack, Discord, Teams, email, PagerDuty), "send test", and the log of every
 * delivery with its attempts and a redeliver action. Reads hold `alerts:read`, changes
 * `alerts:write`. A route's secrets (the webhook URL of a chat platform, the signing secret, the
 * routing key) are never shown after create; the generated signing secret is shown once.
 * @module
 */
import { z } from "zod";
import {
  type Account,
  DELIVERY_STATES,
  type DeliveryAttempt,
  type DeliveryRecord,
  type DeliveryState,
  type EpochMs,
  Forbidden,
  HOUR_MS,
  InvalidRequest,
  mailAddress,
  NotFound,
  type Page,
  pageOf,
  type PageRequest,
  PlanRequired,
  PreconditionFailed,
  RateLimited,
  type RouteRecord,
  type RouteSettingsData,
} from "../domain/mod.ts";
import { describeRoute, RouteSettings, SECRET_FIELDS } from "../outbound/channels/mod.ts";
import { randomToken } from "./_tokens.ts";
import { accountDocVerbs } from "./_account_docs.ts";
import { noticeMessage, queueNotice } from "./_notice.ts";
import type { AppContext } from "./context.ts";
import { type Access, type Caller, callerAccount } from "./policy.ts";
import { parse } from "./monitors.ts";
import {
  askConsent,
  type RecipientState,
  recipientStates,
  suppressionWords,
} from "./mail_consent.ts";
import type { DeliveryView } from "../domain/mod.ts";

/** Reading alert routes, rules and delivered events. */
export const READ_ALERTS: Access = { credential: "key", scopes: ["alerts:read"] };
/** Changing alert routes and rules. */
export const WRITE_ALERTS: Access = {
  credential: "key",
  scopes: ["alerts:write"],
  role: { least: "ADMIN", refusal: "Only the account's owners and admins can change its alerting" },
};
/** Routes an account may keep. */
export const ROUTE_LIMIT = 100;
/** Routes, and addresses per email route, a FREE account may keep. */
export const FREE_ROUTES = { routes: 3, recipients: 3 } as const;
/** "Send test" per route (10 minutes) and per account (an hour). */
export const SEND_TEST_LIMITS = {
  route: { limit: 5, windowMs: HOUR_MS / 6, maxKeys: 100_000 },
  account: { limit: 20, windowMs: HOUR_MS, maxKeys: 100_000 },
} as const;

/** A route as shown: its destination described, secrets masked. */
export interface RouteView {
  readonly id: string;
  readonly name: string;
  readonly kind: RouteSettingsData["kind"];
  /** The destination with secrets masked (scheme and host only: `https://hooks.slack.com/•••`). */
  readonly destination: string;
  readonly paused: RouteRecord["paused"];
  readonly failuresInARow: number;
  /**
   * An email route's addresses and where each stands: `confirmed` (gets the route's mail),
   * `pending` (asked to confirm; gets nothing else until then), `suppressed` (unsubscribed or
   * bounced). Absent for other kinds.
   */
  readonly recipients?: readonly { readonly address: string; readonly state: RecipientState }[];
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly version: number;
}

/** A created route, with the signing secret of a webhook route (shown this once). */
export interface CreatedRoute {
  readonly route: RouteView;
  readonly secret: string | null;
}

const Name = z.string().trim().min(1).max(100);

/** What a create takes: a name and the kind's settings (a webhook's secret is generated). */
const NewRouteInput = z.object({
  name: Name,
  settings: z.record(z.string(), z.unknown()),
}).strict();

/** What an update may change: the name, the settings (whole), or resume a paused route. */
const RoutePatchInput = z.object({
  name: Name.optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  paused: z.literal(false).optional(),
}).strict();

/** The route as shown (an email route with where each recipient stands). */
export async function routeView(ctx: AppContext, r: RouteRecord): Promise<RouteView> {
  const to = r.settings.kind === "email" && Array.isArray(r.settings.to)
    ? r.settings.to.map(String)
    : null;
  return {
    id: r.id,
    name: r.name,
    kind: r.settings.kind,
    destination: describeRoute(r.settings),
    paused: r.paused,
    failuresInARow: r.failuresInARow,
    ...(to ? { recipients: await recipientStates(ctx, r.accountId, to) } : {}),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    version: r.version,
  };
}

/** An email route's addresses: within the plan, none suppressed. */
async function checkRecipients(ctx: AppContext, account: Account, to: readonly string[]) {
  if (account.plan === "FREE" && to.length > FREE_ROUTES.recipients) {
    throw new PlanRequired("PRO", `More than ${FREE_ROUTES.recipients} addresses on one route`);
  }
  const suppressed = await ctx.store.mail.suppressions(to.map(mailAddress));
  const issues = to.flatMap((a, i) => {
    const s = suppressed.get(mailAddress(a));
    return s ? [{ parameter: `settings.to.${i}`, message: suppressionWords(a, s) }] : [];
  });
  if (issues.length) throw new InvalidRequest(issues);
}

/** Asks an email route's unconfirmed addresses to confirm (the route's first mail to them). */
async function askRecipients(ctx: AppContext, account: Account, settings: RouteSettingsData) {
  if (settings.kind !== "email") return;
  await askConsent(ctx, account, settings.to as string[], "alerts");
}

/** Settings checked: the kind's fields, an allowed destination, a mail server for email. */
async function checkSettings(
  ctx: AppContext,
  account: Account,
  raw: Record<string, unknown>,
): Promise<RouteSettingsData> {
  const withSecret = raw.kind === "webhook" && raw.secret === undefined
    ? { ...raw, secret: `whsec_${btoa(randomToken(24)).replace(/(?<!=)=+$/, "")}` }
    : raw;
  const r = RouteSettings.safeParse(withSecret);
  if (!r.success) {
    throw new InvalidRequest(r.error.issues.map((i) => ({
      parameter: ["settings", ...i.path].join("."),
      message: i.message,
    })));
  }
  const settings = r.data as RouteSettingsData;
  if (settings.kind === "email" && !ctx.settings.mailEnabled) {
    throw new InvalidRequest([{
      parameter: "settings.kind",
      message: "email routes need a mail server: the self-hoster sets STATUSD_SMTP_URL",
    }]);
  }
  if (settings.kind === "email") await checkRecipients(ctx, account, settings.to as string[]);
  const url = settings.kind === "pagerduty"
    ? String(settings.endpoint)
    : typeof settings.url === "string"
    ? settings.url
    : null;
  if (url !== null && ctx.checkDestination) {
    const refused = await ctx.checkDestination(url);
    if (refused) {
      throw new InvalidRequest([{
        parameter: settings.kind === "pagerduty" ? "settings.endpoint" : "settings.url",
        message: refused,
      }]);
    }
  }
  return settings;
}

/** Creates a route; a webhook route's signing secret is generated and returned this once. */
export async function createRoute(
  ctx: AppContext,
  who: Caller,
  input: unknown,
): Promise<CreatedRoute> {
  const account = callerAccount(who, WRITE_ALERTS);
  const r = parse(NewRouteInput, input);
  if (r.settings.kind === "webhook" && r.settings.secret !== undefined) {
    throw new InvalidRequest([{
      parameter: "settings.secret",
      message: "statusd generates the signing secret; leave it out",
    }]);
  }
  const settings = await checkSettings(ctx, account, r.settings);
  if (account.plan === "FREE") {
    const { total } = await ctx.store.alertRoutes.list(account.id, { page: 0, limit: 1 });
    if (total >= FREE_ROUTES.routes) {
      throw new PlanRequired("PRO", `More than ${FREE_ROUTES.routes} alert routes`);
    }
  }
  const made = await ctx.store.alertRoutes.create({
    id: `rt_${randomToken(12)}`,
    accountId: account.id,
    name: r.name,
    settings,
    paused: null,
    failuresInARow: 0,
    createdAt: ctx.clock.now(),
  }, ROUTE_LIMIT);
  if (made === "limit" || made === "slug_taken") {
    throw new Forbidden(`This account already has ${ROUTE_LIMIT} alert routes, the most allowed`);
  }
  await askRecipients(ctx, account, settings);
  return {
    route: await routeView(ctx, made),
    secret: settings.kind === "webhook" ? String(settings.secret) : null,
  };
}

/** Changes a route: its name, its settings (the webhook secret is kept), or resumes it. */
export async function updateRoute(
  ctx: AppContext,
  who: Caller,
  id: string,
  input: unknown,
  ifVersion: number | null,
): Promise<RouteView> {
  const account = callerAccount(who, WRITE_ALERTS);
  const patch = parse(RoutePatchInput, input);
  const now = await ctx.store.alertRoutes.get(account.id, id);
  if (now === null) throw new NotFound("alert route", id);
  let settings: RouteSettingsData | undefined;
  if (patch.settings) {
    const keep = patch.settings.kind === "webhook" && now.settings.kind === "webhook"
      ? { secret: now.settings.secret }
      : {};
    settings = await checkSettings(ctx, account, { ...patch.settings, ...keep });
  }
  const updated = await ctx.store.alertRoutes.update(
    account.id,
    id,
    {
      ...(patch.name === undefined ? {} : { name: patch.name }),
      ...(settings === undefined ? {} : { settings }),
    },
    ctx.clock.now(),
    ifVersion,
  );
  if (updated === null) throw new NotFound("alert route", id);
  if (updated === "conflict" || updated === "slug_taken") throw new PreconditionFailed();
  if (patch.paused === false) await ctx.store.alertRoutes.resume(account.id, id);
  if (settings) await askRecipients(ctx, account, settings);
  return await routeView(
    ctx,
    patch.paused === false ? (await ctx.store.alertRoutes.get(account.id, id))! : updated,
  );
}

/** Counts one "send test" against the route's and the account's limits, or throws 429. */
async function takeSendTest(ctx: AppContext, accountId: string, routeId: string, at: EpochMs) {
  const attempts = ctx.store.attempts;
  const route = await attempts.take("send-test-route", routeId, SEND_TEST_LIMITS.route, at);
  if (route > 0) throw new RateLimited(Math.ceil(route / 1000));
  const account = await attempts.take("send-test-account", accountId, SEND_TEST_LIMITS.account, at);
  if (account > 0) {
    await attempts.refund("send-test-route", routeId, SEND_TEST_LIMITS.route, at);
    throw new RateLimited(Math.ceil(account / 1000));
  }
}

/** Queues a test message on the route (within its limits); the worker sends it at once. */
export async function sendTest(
  ctx: AppContext,
  who: Caller,
  id: string,
): Promise<DeliveryView> {
  const account = callerAccount(who, WRITE_ALERTS);
  const route = await ctx.store.alertRoutes.get(account.id, id);
  if (route === null) throw new NotFound("alert route", id);
  const at = ctx.clock.now();
  await takeSendTest(ctx, account.id, route.id, at);
  const deliveryId = `dlv_${randomToken(12)}`;
  const message = noticeMessage({
    notificationId: `test_${deliveryId}`,
    trigger: "test",
    summary: `Test alert from statusd for "${route.name}"`,
    advice: "Nothing is wrong: this checks that alerts reach this destination.",
    links: {},
    sentBecause: `route ${route.name}`,
    at,
  });
  await queueNotice(ctx, {
    id: deliveryId,
    accountId: account.id,
    routeId: route.id,
    source: { kind: "test", id: null },
    subject: null,
    message,
  });
  const got = await ctx.store.deliveries.get(account.id, deliveryId);
  return deliveryView(got!.delivery, got!.attempts);
}

function deliveryView(d: DeliveryRecord, attempts: readonly DeliveryAttempt[]): DeliveryView {
  return {
    id: d.id,
    routeId: d.routeId,
    source: d.source,
    changeId: d.changeId,
    notificationId: d.notificationId,
    step: d.step,
    recovery: d.recovery,
    trigger: d.message.trigger,
    summary: d.message.summary,
    state: d.state,
    attempts,
    lastError: d.lastError,
    notBefore: d.notBefore,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

/** The account's delivered alert events, newest first (attempts: see {@link getDelivery}). */
export async function listDeliveries(
  ctx: AppContext,
  who: Caller,
  filter: { readonly state?: string; readonly routeId?: string },
  page: PageRequest,
): Promise<Page<DeliveryView>> {
  const account = callerAccount(who, READ_ALERTS);
  if (
    filter.state !== undefined && !(DELIVERY_STATES as readonly string[]).includes(filter.state)
  ) {
    throw new InvalidRequest([{
      parameter: "state",
      message: `expected one of ${DELIVERY_STATES.join(", ")}`,
    }]);
  }
  const { items, total } = await ctx.store.deliveries.list(account.id, {
    ...(filter.state ? { state: filter.state as DeliveryState } : {}),
    ...(filter.routeId ? { routeId: filter.routeId } : {}),
  }, page);
  return pageOf(items.map((d) => deliveryView(d, [])), total, page);
}

/** One delivered alert event with every attempt. */
export async function getDelivery(
  ctx: AppContext,
  who: Caller,
  id: string,
): Promise<DeliveryView> {
  const account = callerAccount(who, READ_ALERTS);
  const got = await ctx.store.deliveries.get(account.id, id);
  if (got === null) throw new NotFound("alert event", id);
  return deliveryView(got.delivery, got.attempts);
}

/** Sends a delivered or failed event again (same id: receivers can drop a duplicate). */
export async function redeliver(ctx: AppContext, who: Caller, id: string): Promise<DeliveryView> {
  const account = callerAccount(who, WRITE_ALERTS);
  const done = await ctx.store.deliveries.redeliver(account.id, id, ctx.clock.now());
  if (done === null) throw new NotFound("alert event", id);
  ctx.wakeDeliveries?.();
  return await getDelivery(ctx, who, id);
}

/** Fields of a kind's settings never shown (for docs and tests). */
export const SECRET_SETTINGS = SECRET_FIELDS;

const verbs = accountDocVerbs<RouteRecord, RouteView>({
  noun: "alert route",
  docs: (store) => store.alertRoutes,
  read: READ_ALERTS,
  write: WRITE_ALERTS,
  views: (ctx, _account, routes) => Promise.all(routes.map((r) => routeView(ctx, r))),
});
/** The account's routes, oldest first. */
export const listRoutes = verbs.list;
/** One of the account's routes. */
export const getRoute = verbs.get;
/** Deletes a route (`ifVersion`: the version the caller saw, or null). */
export const deleteRoute = verbs.remove;

export type { DeliveryView };
