/**
 * The alert evaluator: it turns committed changes and failing readings into
 * deliveries in the outbox.
 *
 * It works from what changed. A round reads the changes after its stored cursor. It asks the
 * store who watches the changed services (`monitors.watching`, on the `monitors_service` index)
 * and reads the rules and subscriptions of those accounts only. It reads each changed service's
 * current levels once. Its cost grows with the changes and their watchers, not with every rule
 * of every account, and a round with no change reads two rows.
 *
 * It writes what must be sent in the same transaction that moves the cursor. A crash between
 * reading and writing loses nothing. Ids derived from (rule, subject, change, route) make a
 * replay — or two instances racing on PostgreSQL (the cursor is compare-and-set) — send nothing
 * twice. Timed conditions are due-time rows, not scans: a debounce (`forMinutes`), an
 * escalation step and a reading failing for `failingMinutes` are deliveries with a `notBefore`,
 * cancelled when what caused them ends first.
 * @module
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import {
  ALERT_COMPONENTS_SHOWN,
  type AlertMessage,
  type AlertTrigger,
  type BoardRecord,
  type Change,
  componentKey,
  type EnqueueOptions,
  type EpochMs,
  errorWords,
  escalationSchedule,
  formatMinutes,
  type GroupRecord,
  levelNoun,
  levelPhrase,
  maintenanceOverrun,
  MIN_RESOLUTION_SAMPLE,
  MINUTE_MS,
  monitorLevelNow,
  type MonitorRecord,
  type NewDelivery,
  type Reading,
  readingOf,
  type RuleRecord,
  type RuleTarget,
  type ServiceDetail,
  severity,
  type StatusLevel,
  type SubscriptionRecord,
  webLinkOrNull,
} from "../domain/mod.ts";
import { getService } from "./catalog.ts";
import type { AppContext } from "./context.ts";
import { acknowledgeLink } from "./escalations.ts";
import { unsubscribeLink } from "./subscriptions.ts";

/** The evaluator's cursor over the change log. */
export const EVALUATOR_CURSOR = "evaluator";
/** Changes read per evaluation round. */
export const BATCH = 500;
/** How often a service still failing is looked at again (rules and monitors added meanwhile). */
const FAILING_REFRESH_MS = 60_000;

/** A short stable id from `parts` (delivery and notification ids). */
export const hash = (...parts: (string | number)[]) =>
  encodeHexLowerCase(sha256(new TextEncoder().encode(parts.join("\u0000")))).slice(0, 24);

/** Settings › Alerts, where the account reads every delivery. */
function alertsPage(ctx: AppContext): string {
  return `${ctx.settings.publicUrl}/settings/alerts`;
}

/** A rule's delivery with the link to itself in Settings › Alerts (each route's its own). */
function linked(ctx: AppContext, d: NewDelivery): NewDelivery {
  return {
    ...d,
    message: {
      ...d.message,
      links: { ...d.message.links, delivery: `${alertsPage(ctx)}/events/${d.id}` },
    },
  };
}

/** `cache`'s promise for `key`, made by `load` the first time. */
function once<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let found = cache.get(key);
  if (!found) cache.set(key, found = load());
  return found;
}

/**
 * What one round reads once: each changed service's detail, and the groups and boards rules
 * name. Nothing outlives the round, so an edit is seen by the next one.
 */
export class Round {
  readonly now: EpochMs;
  readonly #services = new Map<string, Promise<ServiceDetail | null>>();
  readonly #groups = new Map<string, Promise<GroupRecord | null>>();
  readonly #boards = new Map<string, Promise<BoardRecord | null>>();
  constructor(readonly ctx: AppContext) {
    this.now = ctx.clock.now();
  }

  /** The service's detail now (null: it left the catalog). */
  service(slug: string): Promise<ServiceDetail | null> {
    return once(this.#services, slug, () => getService(this.ctx, slug).catch(() => null));
  }

  /**
   * The service's name, page and reading health now, without its components and history (what
   * a failing reading's alert says; cheap enough for every failing vendor each minute).
   */
  async reading(slug: string): Promise<ReadingOfService | null> {
    const row = await this.ctx.store.catalog.service(slug);
    if (row === null) return null;
    const policy = { stableSeconds: this.ctx.settings.pollStableSeconds };
    return {
      name: row.name,
      statusPageUrl: row.statusPageUrl,
      reading: readingOf(row.reading, this.now, policy),
    };
  }

  /** The level `m` reads now. */
  async level(m: MonitorRecord): Promise<StatusLevel> {
    return monitorLevelNow(await this.service(m.serviceSlug), m.components);
  }

  group(accountId: string, id: string): Promise<GroupRecord | null> {
    return once(this.#groups, `${accountId}|${id}`, () => this.ctx.store.groups.get(accountId, id));
  }

  board(accountId: string, id: string): Promise<BoardRecord | null> {
    return once(this.#boards, `${accountId}|${id}`, () => this.ctx.store.boards.get(accountId, id));
  }

  /** Of `monitors` (one account's), those `target` names. */
  async targeted(
    accountId: string,
    target: RuleTarget,
    monitors: readonly MonitorRecord[],
  ): Promise<MonitorRecord[]> {
    if (target.kind === "all") return [...monitors];
    if (target.kind === "monitor") return monitors.filter((m) => m.id === target.id);
    if (target.kind === "group") {
      const g = await this.group(accountId, target.id);
      return g ? monitors.filter((m) => g.monitorIds.includes(m.id)) : [];
    }
    const b = await this.board(accountId, target.id);
    if (!b) return [];
    const ids = new Set<string>();
    for (const item of b.items) {
      if (item.kind === "monitor") ids.add(item.id);
      else for (const id of (await this.group(accountId, item.id))?.monitorIds ?? []) ids.add(id);
    }
    return monitors.filter((m) => ids.has(m.id));
  }
}

/** What a failing reading's alert needs of its service. */
interface ReadingOfService {
  readonly name: string;
  readonly statusPageUrl: string;
  readonly reading: Reading;
}

/** A rule or subscription and one monitor of a changed service it watches. */
export interface Watch<S> {
  readonly source: S;
  readonly monitor: MonitorRecord;
}

/**
 * Who watches `slugs`: per service, each rule (and active subscription) of an account with a
 * monitor on it, paired with each such monitor its target names, in rule order. Disabled rules
 * are among them: they send nothing new, but end the alerts they opened. Subscriptions are read
 * only `withSubscriptions` (they are told nothing of readings).
 */
export async function watchersOf(
  round: Round,
  slugs: readonly string[],
  withSubscriptions = true,
): Promise<{
  readonly rules: ReadonlyMap<string, readonly Watch<RuleRecord>[]>;
  readonly subscriptions: ReadonlyMap<string, readonly Watch<SubscriptionRecord>[]>;
}> {
  const store = round.ctx.store;
  const monitors = slugs.length ? await store.monitors.watching(slugs) : [];
  const byAccount = new Map<string, MonitorRecord[]>();
  for (const m of monitors) {
    const list = byAccount.get(m.accountId);
    if (list) list.push(m);
    else byAccount.set(m.accountId, [m]);
  }
  const accounts = [...byAccount.keys()];
  const pair = async <S extends { accountId: string; target: RuleTarget }>(
    sources: readonly S[],
  ) => {
    const bySlug = new Map<string, Watch<S>[]>();
    for (const source of sources) {
      const own = byAccount.get(source.accountId) ?? [];
      for (const monitor of await round.targeted(source.accountId, source.target, own)) {
        const list = bySlug.get(monitor.serviceSlug);
        if (list) list.push({ source, monitor });
        else bySlug.set(monitor.serviceSlug, [{ source, monitor }]);
      }
    }
    return bySlug;
  };
  return {
    rules: await pair(accounts.length ? await store.alertRules.ofAccounts(accounts) : []),
    subscriptions: await pair(
      accounts.length && withSubscriptions ? await store.subscriptions.active(accounts) : [],
    ),
  };
}

/** True when `change` concerns what `m` watches. */
function concerns(change: Change, m: MonitorRecord): boolean {
  // statusd's own early warnings are the warnings pass's (app/alert_warnings.ts), not a change
  // of the vendor's: rules opt in to them, subscriptions never hear of them.
  if (change.kind === "early_warning") return false;
  if (change.slug !== m.serviceSlug || m.paused) return false;
  if (change.kind === "incident") {
    // A monitor narrowed to components hears of an incident only when the vendor names one of
    // them, or names none (then the alert says so).
    const named = change.components ?? [];
    if (m.components.length === 0 || named.length === 0) return true;
    const watched = new Set(m.components.map(componentKey));
    return named.some((c) => watched.has(componentKey(c)));
  }
  if (m.components.length === 0) return change.component === null;
  if (change.component === null) return false;
  const key = componentKey(change.component);
  return m.components.some((c) => componentKey(c) === key);
}

function reached(level: StatusLevel, threshold: StatusLevel): boolean | null {
  const s = severity(level);
  return s === undefined ? null : s >= severity(threshold)!;
}

function incidentTrigger(change: Change & { kind: "incident" }): AlertTrigger {
  switch (change.status) {
    case "SCHEDULED":
      return "maintenance_scheduled";
    case "IN_PROGRESS":
      return "maintenance_started";
    case "COMPLETED":
      return "maintenance_completed";
    case "RESOLVED":
      return "incident_resolved";
    default:
      // A new incident comes with its first update; only later ones are updates.
      return change.opened || !change.latestUpdate ? "incident_opened" : "incident_updated";
  }
}

async function messageFor(
  round: Round,
  rule: { readonly name: string },
  m: MonitorRecord,
  change: Change,
  notificationId: string,
  trigger: AlertTrigger,
  level: StatusLevel,
  previous: StatusLevel | null,
): Promise<AlertMessage> {
  const ctx = round.ctx;
  const service = await round.service(m.serviceSlug);
  const name = service?.name ?? m.serviceSlug;
  const watched = service?.components.filter((c) =>
    m.components.length === 0 ||
    m.components.some((w) => componentKey(w) === componentKey(c.name))
  ) ?? [];
  const broken = watched.filter((c) => c.status !== "OPERATIONAL").map((c) => ({
    name: c.name,
    level: c.status,
  })).sort((a, b) => (severity(b.level) ?? 0) - (severity(a.level) ?? 0));
  const incident = change.kind === "incident"
    ? {
      id: change.incidentId,
      title: change.title,
      status: change.status,
      impact: change.impact,
      latestUpdate: change.latestUpdate,
      url: webLinkOrNull(change.url),
      components: [...change.components ?? []],
    }
    : null;
  const impact = incident?.impact ??
    (level === "MAJOR_OUTAGE" ? "MAJOR" : level === "PARTIAL_OUTAGE" ? "MINOR" : null);
  const figure = impact && service
    ? service.timeToResolve.byImpact[impact as keyof typeof service.timeToResolve.byImpact]
    : undefined;
  const label = m.label ?? name;
  // A maintenance the vendor still calls under way although its announced end has passed. The
  // change names the vendor's id, reads give statusd's own: the open one of that title, if
  // only one has it.
  const sameTitle = change.kind === "incident"
    ? service?.incidents.filter((i) => i.title === change.title) ?? []
    : [];
  const overrun = sameTitle.length === 1 ? maintenanceOverrun(sameTitle[0]!, change.at) : null;
  const overran = overrun === null
    ? ""
    : `overran its announced end by ${formatMinutes(overrun.byMs / MINUTE_MS)}`;
  const what = trigger === "recovered"
    ? `${label} recovered: ${levelNoun(level)}`
    : incident
    ? `${label}: ${incident.title}${overran ? ` (${overran})` : ""}`
    : `${label} ${levelPhrase(level)}`;
  const closed = incident !== null &&
    (incident.status === "RESOLVED" || incident.status === "COMPLETED");
  return {
    notificationId,
    trigger,
    summary: what.slice(0, 300),
    level,
    previousLevel: previous,
    service: {
      slug: m.serviceSlug,
      name,
      vendorUrl: service?.statusPageUrl ?? `${ctx.settings.publicUrl}/services/${m.serviceSlug}`,
      statusdUrl: `${ctx.settings.publicUrl}/services/${m.serviceSlug}`,
    },
    components: broken.slice(0, ALERT_COMPONENTS_SHOWN),
    componentsTotal: broken.length,
    incident,
    // Quoted only from enough incidents of this impact; the sample size travels with it.
    timeToResolve: !closed && trigger !== "recovered" && figure &&
        figure.incidents >= MIN_RESOLUTION_SAMPLE && figure.p50Minutes !== null &&
        figure.p90Minutes !== null
      ? {
        impact: impact as "MINOR",
        p50Minutes: figure.p50Minutes,
        p90Minutes: figure.p90Minutes,
        sample: figure.incidents,
      }
      : null,
    advice: trigger === "recovered"
      ? "Nothing to do: what this rule watches is back under its threshold."
      : closed
      ? `${name} closed this ${incident!.status === "COMPLETED" ? "maintenance" : "incident"}.`
      : overran
      ? `This maintenance ${overran} and ${name} has not said it is done: check its status page.`
      : `Check ${name}'s status page for updates; statusd tells you when it recovers.`,
    links: { alerts: alertsPage(ctx) },
    sentBecause: rule.name,
    at: change.at,
  };
}

/**
 * What caused a rule's deliveries: the key their ids derive from (a change's id, or a failing
 * run's start), the change if one did, and when.
 */
export interface Cause {
  readonly key: string | number;
  readonly changeId: number | null;
  readonly createdAt: EpochMs;
}

/** A change as the cause of deliveries. */
function changeCause(change: Change): Cause {
  return { key: change.id, changeId: change.id, createdAt: change.at };
}

/** Deliveries of `message` to each of the rule's routes. */
export function toRoutes(
  rule: RuleRecord,
  message: AlertMessage,
  cause: Cause,
  subject: string,
  notBefore: number,
  recovery: boolean,
  routes: readonly string[] = rule.routes,
): NewDelivery[] {
  return routes.map((routeId) => ({
    id: `dlv_${hash(rule.id, subject, cause.key, routeId, recovery ? "r" : "a")}`,
    accountId: rule.accountId,
    routeId,
    source: { kind: "rule", id: rule.id },
    changeId: cause.changeId,
    notificationId: message.notificationId,
    subject,
    step: 0,
    recovery,
    message,
    notBefore,
    createdAt: cause.createdAt,
  }));
}

/** A fired alert's deliveries: the rule's routes now, and each escalation step at its time. */
async function firing(
  ctx: AppContext,
  rule: RuleRecord,
  message: AlertMessage,
  change: Change,
  subject: string,
  at: number,
): Promise<NewDelivery[]> {
  const out = toRoutes(rule, message, changeCause(change), subject, at, false);
  const policy = rule.escalation
    ? await ctx.store.escalations.get(rule.accountId, rule.escalation)
    : null;
  if (!policy) return out;
  const withAck: AlertMessage = {
    ...message,
    links: { ...message.links, acknowledge: await acknowledgeLink(ctx, message.notificationId) },
  };
  for (const s of escalationSchedule(policy, at)) {
    for (const routeId of s.routes) {
      out.push({
        id: `dlv_${hash(rule.id, subject, change.id, routeId, "step", s.step)}`,
        accountId: rule.accountId,
        routeId,
        source: { kind: "rule", id: rule.id },
        changeId: change.id,
        notificationId: message.notificationId,
        subject,
        step: s.step + 1,
        recovery: false,
        message: withAck,
        notBefore: s.at,
        createdAt: change.at,
      });
    }
  }
  return out;
}

/** The outbox writes of one round: deliveries to insert and notifications to stop or end. */
export class Outbox {
  readonly items: NewDelivery[] = [];
  readonly cancel: string[] = [];
  /** Notifications whose alert ended (what did not reach a route stops). */
  readonly end: string[] = [];

  /** The deliveries to insert; a rule's each link to itself (a subscriber may be no member). */
  linked(ctx: AppContext): NewDelivery[] {
    return this.items.map((d) => d.source.kind === "rule" ? linked(ctx, d) : d);
  }

  /** Drops queued deliveries matching `drop`. */
  drop(drop: (d: NewDelivery) => boolean): void {
    const kept = this.items.filter((d) => !drop(d));
    this.items.splice(0, this.items.length, ...kept);
  }
}

/** Per rule and subject: an alert is open, and its notification. */
interface AlertState {
  readonly open: boolean;
  readonly notificationId: string | null;
}

/**
 * Ends the alert of `notificationId`: whatever of it has not reached a route stops (queued in
 * this round, never attempted, waiting for a retry or held by a paused route), and resolves with
 * the routes it reached — attempted at least once, or being attempted now — which its recovery
 * goes to. None: nothing went anywhere, and the alert ends without a word.
 */
export async function endNotification(
  round: Round,
  notificationId: string,
  out: Outbox,
): Promise<string[]> {
  out.drop((x) => x.notificationId === notificationId && !x.recovery);
  out.end.push(notificationId);
  const reached = new Set<string>();
  for (const d of await round.ctx.store.deliveries.ofNotification(notificationId)) {
    if (d.recovery) continue;
    const inFlight = d.state === "pending" && d.claimedUntil !== null &&
      d.claimedUntil >= round.now;
    if (d.attempts > 0 || inFlight) reached.add(d.routeId);
  }
  return [...reached];
}

/** A rule's alerts about incidents and maintenance: one notification per incident. */
async function evaluateIncident(
  round: Round,
  rule: RuleRecord,
  m: MonitorRecord,
  change: Change & { kind: "incident" },
  out: Outbox,
): Promise<void> {
  const trigger = incidentTrigger(change);
  const maintenance = trigger.startsWith("maintenance");
  if (maintenance ? !rule.maintenance : !rule.incidents) return;
  if (!rule.enabled && trigger !== "incident_resolved") return; // disabled: only endings
  // An incident's notification has its own subject: its deliveries never stand for the
  // monitor's status alert (whose recovery must resolve the status alert's key).
  const subject = `monitor:${m.id}`;
  const about = `${subject}:incident:${change.incidentId}`;
  const notificationId = `ntf_${hash(rule.id, subject, "incident", change.incidentId)}`;
  let routes = rule.routes;
  if (trigger === "incident_resolved") {
    // A resolve follows, once, the messages of the incident that reached a route, to those
    // routes; what did not reach one stops.
    const mine = out.items.filter((x) => x.notificationId === notificationId);
    if (mine.some((x) => x.recovery)) return;
    const last = await round.ctx.store.deliveries.latestFor(rule.id, about);
    if (!mine.length && (last === null || last.recovery)) return;
    routes = await endNotification(round, notificationId, out);
    if (routes.length === 0) return;
  }
  const msg = await messageFor(
    round,
    { name: `rule ${rule.name}` },
    m,
    change,
    notificationId,
    trigger,
    await round.level(m),
    null,
  );
  out.items.push(
    ...toRoutes(
      rule,
      msg,
      changeCause(change),
      about,
      round.now,
      trigger === "incident_resolved",
      routes,
    ),
  );
}

/** A rule's status alert about `m`: fires at its level, recovers under it (states: per round). */
async function evaluateStatus(
  round: Round,
  rule: RuleRecord,
  m: MonitorRecord,
  change: Change,
  out: Outbox,
  states: Map<string, AlertState>,
): Promise<void> {
  if (rule.level === null) return;
  const ctx = round.ctx;
  const now = round.now;
  const level = await round.level(m);
  const fired = reached(level, rule.level);
  if (fired === null) return; // UNKNOWN: neither fired nor recovered
  const subject = `monitor:${m.id}`;
  const key = `${rule.id}|${subject}`;
  let s = states.get(key);
  if (!s) {
    const last = await ctx.store.deliveries.latestFor(rule.id, subject);
    const open = last !== null && !last.recovery && last.state !== "cancelled";
    s = { open, notificationId: last?.notificationId ?? null };
  }
  const previous = change.kind === "status" ? change.from : null;
  if (fired && !s.open && !rule.enabled) return; // disabled: nothing new
  if (fired && !s.open) {
    const notificationId = `ntf_${hash(rule.id, subject, change.id)}`;
    const msg = await messageFor(
      round,
      { name: `rule ${rule.name}` },
      m,
      change,
      notificationId,
      "status",
      level,
      previous,
    );
    out.items.push(
      ...await firing(ctx, rule, msg, change, subject, now + rule.forMinutes * 60_000),
    );
    states.set(key, { open: true, notificationId });
    return;
  }
  if (fired || !s.open || !s.notificationId) {
    states.set(key, s);
    return;
  }
  const id = s.notificationId;
  states.set(key, { open: false, notificationId: null });
  // Told where the alert reached: each route that was attempted (or is being attempted now),
  // whatever step; what did not reach a route (a flap shorter than forMinutes, a retry still
  // waiting, a paused route, an escalation step not due) stops.
  const told = await endNotification(round, id, out);
  if (told.length === 0) return;
  const msg = await messageFor(
    round,
    { name: `rule ${rule.name}` },
    m,
    change,
    id,
    "recovered",
    level,
    previous,
  );
  const cause = changeCause(change);
  if (rule.recovery) out.items.push(...toRoutes(rule, msg, cause, subject, now, true, told));
  else {
    // No recovery to send, but the alert ended: a marker, so the next rise is a new alert
    // (without it the last trigger would read as still open, and stay silent).
    out.items.push(
      ...toRoutes(rule, msg, cause, subject, now, true, told.slice(0, 1))
        .map((x) => ({ ...x, closing: true as const })),
    );
  }
}

/** A subscription's message about one change to one monitor. */
async function evaluateSubscription(
  round: Round,
  sub: SubscriptionRecord,
  m: MonitorRecord,
  change: Change,
  out: Outbox,
): Promise<void> {
  const trigger: AlertTrigger = change.kind === "incident" ? incidentTrigger(change) : "status";
  const notificationId = `ntf_${hash(sub.id, m.id, change.id)}`;
  const msg = await messageFor(
    round,
    { name: `subscription to ${sub.target.kind} ${sub.target.id}` },
    m,
    change,
    notificationId,
    trigger,
    await round.level(m),
    change.kind === "status" ? change.from : null,
  );
  const routeId = sub.channel.kind === "route" ? sub.channel.routeId : sub.id;
  out.items.push({
    id: `dlv_${hash(sub.id, m.id, change.id, routeId)}`,
    accountId: sub.accountId,
    routeId,
    source: { kind: "subscription", id: sub.id },
    changeId: change.id,
    notificationId,
    subject: `monitor:${m.id}`,
    step: 0,
    recovery: false,
    // A subscriber may be no member of the account: no link into its settings.
    message: { ...msg, links: { unsubscribe: unsubscribeLink(round.ctx, sub) } },
    notBefore: round.now,
    createdAt: change.at,
  });
}

/**
 * One evaluation round: the changes after the cursor (at most 500) against the rules and
 * subscriptions watching their services, written to the outbox with the cursor move. Resolves
 * with how many changes it read. The first round of a new installation starts at the newest
 * change (history is not re-alerted).
 */
export async function evaluateAlerts(ctx: AppContext): Promise<number> {
  const round = await evaluateRound(ctx);
  return round === "lost" ? 0 : round;
}

/** {@link evaluateAlerts}, telling a round another instance won ("lost") from an empty one. */
export async function evaluateRound(ctx: AppContext): Promise<number | "lost"> {
  const d = ctx.store.deliveries;
  let from = await d.cursor(EVALUATOR_CURSOR);
  if (from === null) {
    const latest = await ctx.store.changes.latestId();
    const r = await d.enqueue([], { cursor: { name: EVALUATOR_CURSOR, from: 0, to: latest } });
    if (r === "stale_cursor") return "lost";
    from = latest;
  }
  const changes = await ctx.store.changes.after(from, BATCH);
  if (changes.length === 0) return 0;
  const round = new Round(ctx);
  const watchers = await watchersOf(round, [...new Set(changes.map((c) => c.slug))]);
  const out = new Outbox();
  const states = new Map<string, AlertState>();
  for (const change of changes) {
    for (const { source: rule, monitor } of watchers.rules.get(change.slug) ?? []) {
      if (!concerns(change, monitor)) continue;
      if (change.kind === "incident") await evaluateIncident(round, rule, monitor, change, out);
      else await evaluateStatus(round, rule, monitor, change, out, states);
    }
  }
  for (const change of changes) {
    for (const { source: sub, monitor } of watchers.subscriptions.get(change.slug) ?? []) {
      if (concerns(change, monitor)) await evaluateSubscription(round, sub, monitor, change, out);
    }
  }
  const to = changes[changes.length - 1]!.id;
  const r = await d.enqueue(out.linked(ctx), {
    cursor: { name: EVALUATOR_CURSOR, from, to },
    ...endings(out, round.now),
  });
  if (r === "stale_cursor") return "lost"; // another instance took this batch
  if (r.inserted > 0) ctx.wakeDeliveries?.();
  return changes.length;
}

// ---------------------------------------------------------------------------------------------
// Failing readings

/** What the readings pass remembers between rounds (per app context). */
interface ReadingsMemory {
  /** Services seen failing: since when, and when last looked at. */
  readonly failing: Map<string, { readonly since: EpochMs; readonly checkedAt: EpochMs }>;
  /** Services whose failing alerts may still need ending (loaded from the outbox at start). */
  started: boolean;
}

const memories = new WeakMap<AppContext, ReadingsMemory>();

/** The reading alert's notification of one failing run (its id comes from when the run began). */
function readingNotification(rule: RuleRecord, subject: string, since: EpochMs): string {
  return `ntf_${hash(rule.id, subject, since)}`;
}

/**
 * The readings pass: rules with `failingMinutes` fire when statusd has failed to read a watched
 * vendor for that long (one alert per failure run) and recover when a reading succeeds again.
 *
 * When a service starts failing, each rule watching it gets a delivery due when the run would
 * have lasted `failingMinutes` (a due-time row: the worker sends it then). When the service
 * reads again, a delivery not yet due is cancelled (nothing went), and one that went is followed
 * by the recovery. A round reads the failing services (an index of few rows) and does more only
 * for a service that started or stopped failing, or is looked at again each minute. Resolves
 * with how many deliveries it queued.
 */
export async function evaluateReadings(ctx: AppContext): Promise<number> {
  let memory = memories.get(ctx);
  if (!memory) {
    memory = { failing: new Map(), started: false };
    memories.set(ctx, memory);
  }
  const round = new Round(ctx);
  const now = round.now;
  const failing = new Map<string, EpochMs>();
  for (const f of await ctx.store.catalog.failing()) {
    if (f.since !== null) failing.set(f.slug, f.since);
  }
  // Services to end: seen failing before (or, after a start, with an alert still open), and
  // failing no more or failing in a new run.
  const ending = new Set<string>();
  for (const [slug, seen] of memory.failing) {
    if (failing.get(slug) !== seen.since) ending.add(slug);
  }
  if (!memory.started) {
    for (const d of await ctx.store.deliveries.unresolved("reading:")) {
      const m = await ctx.store.monitors.get(d.accountId, d.subject!.slice("reading:".length));
      if (m) ending.add(m.serviceSlug);
    }
    memory.started = true;
  }
  const starting = [...failing].filter(([slug, since]) => {
    const seen = memory!.failing.get(slug);
    return !seen || seen.since !== since || now - seen.checkedAt >= FAILING_REFRESH_MS;
  });
  if (ending.size === 0 && starting.length === 0) return 0;
  const slugs = [...new Set([...ending, ...starting.map(([slug]) => slug)])];
  const watchers = (await watchersOf(round, slugs, false)).rules;
  const out = new Outbox();
  for (const slug of ending) {
    const service = await round.service(slug);
    // A service re-synced and not yet read is not "read again": wait for a real reading.
    if (service?.reading.state === "never_read") continue;
    for (const { source: rule, monitor } of watchers.get(slug) ?? []) {
      if (rule.failingMinutes) {
        await endOwnAlert(round, rule, monitor, `reading:${monitor.id}`, (name) => ({
          summary: `statusd reads ${name} again`,
          advice: "Nothing to do: readings succeed again.",
        }), out);
      }
    }
    memory.failing.delete(slug);
  }
  for (const [slug, since] of starting) {
    const service = await round.reading(slug);
    if (service?.reading.state === "failing" && service.reading.error) {
      for (const { source: rule, monitor } of watchers.get(slug) ?? []) {
        if (rule.failingMinutes && rule.enabled) {
          startReadingAlert(round, rule, monitor, service, since, out);
        }
      }
    }
    memory.failing.set(slug, { since, checkedAt: now });
  }
  return await enqueueTimed(ctx, out, now);
}

/**
 * Writes what a timed pass (readings, early warnings) queued and cancelled, outside the change
 * cursor, and wakes the delivery worker; resolves with how many deliveries were inserted.
 */
export async function enqueueTimed(ctx: AppContext, out: Outbox, now: EpochMs): Promise<number> {
  if (out.items.length === 0 && out.cancel.length === 0 && out.end.length === 0) return 0;
  const r = await ctx.store.deliveries.enqueue(out.linked(ctx), endings(out, now));
  if (r === "stale_cursor") return 0;
  if (r.inserted > 0) ctx.wakeDeliveries?.();
  return r.inserted;
}

/** The outbox's cancels and endings as enqueue options at `now`. */
function endings(out: Outbox, now: EpochMs): Pick<EnqueueOptions, "cancel" | "end"> {
  return {
    ...(out.cancel.length
      ? { cancel: { notificationIds: out.cancel, state: "cancelled" as const, dueAfter: now } }
      : {}),
    ...(out.end.length ? { end: { notificationIds: out.end, at: now } } : {}),
  };
}

/**
 * What an alert about statusd's own observation of a vendor (a failing reading, an early
 * warning) says besides its trigger.
 */
export function ownAlertBase(
  round: Round,
  rule: RuleRecord,
  m: MonitorRecord,
  service: Pick<ReadingOfService, "name" | "statusPageUrl"> | null,
): Omit<AlertMessage, "notificationId" | "trigger" | "summary" | "advice"> {
  const publicUrl = round.ctx.settings.publicUrl;
  return {
    level: "UNKNOWN",
    previousLevel: null,
    service: {
      slug: m.serviceSlug,
      name: service?.name ?? m.serviceSlug,
      vendorUrl: service?.statusPageUrl ?? `${publicUrl}/services/${m.serviceSlug}`,
      statusdUrl: `${publicUrl}/services/${m.serviceSlug}`,
    },
    components: [],
    componentsTotal: 0,
    incident: null,
    timeToResolve: null,
    links: { alerts: alertsPage(round.ctx) },
    sentBecause: `rule ${rule.name}`,
    at: round.now,
  };
}

/** Queues the failing run's alert, due when it has lasted the rule's `failingMinutes`. */
function startReadingAlert(
  round: Round,
  rule: RuleRecord,
  m: MonitorRecord,
  service: ReadingOfService,
  since: EpochMs,
  out: Outbox,
): void {
  const subject = `reading:${m.id}`;
  const error = service.reading.error!;
  const name = service.name;
  const message: AlertMessage = {
    ...ownAlertBase(round, rule, m, service),
    notificationId: readingNotification(rule, subject, since),
    trigger: "reading_failing",
    summary: `statusd cannot read ${name}`.slice(0, 300),
    advice: `Reading ${name} has failed since ${new Date(since).toISOString()} ` +
      `(${errorWords(error)}: ${error.message}). Its status is unknown until a reading ` +
      "succeeds; check the vendor's status page yourself meanwhile.",
    at: since + rule.failingMinutes! * 60_000,
  };
  const cause = { key: String(since), changeId: null, createdAt: round.now };
  const due = Math.max(round.now, since + rule.failingMinutes! * 60_000);
  out.items.push(...toRoutes(rule, message, cause, subject, due, false));
}

/**
 * Ends the rule's open alert about `m` on `subject` (a failing reading, an early warning):
 * cancelled if not yet due, else followed by its recovery, saying `words` of the vendor's name.
 */
export async function endOwnAlert(
  round: Round,
  rule: RuleRecord,
  m: MonitorRecord,
  subject: string,
  words: (name: string) => { readonly summary: string; readonly advice: string },
  out: Outbox,
): Promise<void> {
  const last = await round.ctx.store.deliveries.latestFor(rule.id, subject);
  if (last === null || last.recovery || last.state === "cancelled") return;
  // Not reached anywhere (a failure shorter than failingMinutes, a paused route): nothing went.
  const reached = await endNotification(round, last.notificationId, out);
  if (reached.length === 0) return;
  const service = await round.service(m.serviceSlug);
  const { summary, advice } = words(service?.name ?? m.serviceSlug);
  const message: AlertMessage = {
    ...ownAlertBase(round, rule, m, service),
    level: monitorLevelNow(service, m.components),
    notificationId: last.notificationId,
    trigger: "recovered",
    summary: summary.slice(0, 300),
    advice,
  };
  const cause = { key: last.notificationId, changeId: null, createdAt: round.now };
  const deliveries = toRoutes(rule, message, cause, subject, round.now, true, reached);
  out.items.push(
    ...(rule.recovery
      ? deliveries
      : deliveries.slice(0, 1).map((x) => ({ ...x, closing: true as const }))),
  );
}
