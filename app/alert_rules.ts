/**
 * Alert rules and the evaluator (issue #13). A rule watches a monitor, a group, a board or all
 * of an account's monitors and fires when what it watches reaches a level or worse (after
 * `forMinutes`, so a flap pages no one), when an incident opens, updates or resolves, or when a
 * maintenance is scheduled, starts or completes; it sends to routes, and tells of the recovery.
 *
 * The evaluator reads the durable change log after its stored cursor and writes what must be
 * sent to the outbox in the same transaction that moves the cursor: a crash between reading and
 * writing loses nothing, and ids derived from (rule, subject, change, route) make a replay —
 * or two instances racing on PostgreSQL (the cursor is compare-and-set) — send nothing twice.
 * @module
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { z } from "zod";
import {
  type Account,
  ALERT_COMPONENTS_SHOWN,
  type AlertMessage,
  type AlertTrigger,
  type Change,
  componentKey,
  escalationSchedule,
  Forbidden,
  InvalidRequest,
  type Issue,
  levelNoun,
  levelPhrase,
  MIN_RESOLUTION_SAMPLE,
  type MonitorRecord,
  type NewDelivery,
  NotFound,
  type Page,
  pageOf,
  type PageRequest,
  PreconditionFailed,
  type RuleRecord,
  type RuleTarget,
  severity,
  STATUS_LEVELS,
  type StatusLevel,
  webLinkOrNull,
} from "../domain/mod.ts";
import { READ_ALERTS, WRITE_ALERTS } from "./alert_routes.ts";
import { randomToken } from "./_tokens.ts";
import { getService } from "./catalog.ts";
import { acknowledgeLink } from "./escalations.ts";
import { unsubscribeLink } from "./subscriptions.ts";
import { mergePatch } from "./_patch.ts";
import type { AppContext } from "./context.ts";
import { viewOf } from "./monitors.ts";
import { parse } from "./monitors.ts";
import { type Access, authorize, type Caller } from "./policy.ts";

/** Rules an account may keep. */
export const RULE_LIMIT = 200;
/** The evaluator's cursor over the change log. */
export const EVALUATOR_CURSOR = "evaluator";
/** Changes read per evaluation round. */
const BATCH = 500;

const Id = z.string().trim().min(1).max(100);
const Target = z.discriminatedUnion("kind", [
  z.object({ kind: z.enum(["monitor", "group", "board"]), id: Id }).strict(),
  z.object({ kind: z.literal("all") }).strict(),
]);
const Level = z.enum(STATUS_LEVELS);

const NewRuleInput = z.object({
  name: z.string().trim().min(1).max(100),
  target: Target,
  level: Level.nullable().default("PARTIAL_OUTAGE"),
  incidents: z.boolean().default(false),
  maintenance: z.boolean().default(false),
  forMinutes: z.number().int().min(0).max(1440).default(0),
  failingMinutes: z.number().int().min(1).max(1440).nullable().default(null),
  recovery: z.boolean().default(true),
  routes: z.array(Id).max(20).default([]),
  escalation: Id.nullable().default(null),
  enabled: z.boolean().default(true),
}).strict();

/** What an update may change: merge-patch, an absent field unchanged. */
const RulePatchInput = mergePatch(NewRuleInput);

function accountFor(who: Caller, access: Access): Account {
  authorize(who, access);
  if (who.kind === "anonymous") throw new Forbidden();
  if (access === WRITE_ALERTS && who.kind === "session" && who.member.role === "MEMBER") {
    throw new Forbidden("Only the account's owners and admins can change its alerting");
  }
  return who.account;
}

/** The account's ids the rule names that do not exist, as 400 issues. */
async function checkRefs(
  ctx: AppContext,
  accountId: string,
  rule: { target?: RuleTarget; routes?: readonly string[]; escalation?: string | null },
): Promise<void> {
  const issues: Issue[] = [];
  if (rule.escalation && await ctx.store.escalations.get(accountId, rule.escalation) === null) {
    issues.push({
      parameter: "escalation",
      message: `no escalation policy "${rule.escalation}" in this account`,
    });
  }
  const t = rule.target;
  if (t && t.kind !== "all") {
    const found = t.kind === "monitor"
      ? await ctx.store.monitors.get(accountId, t.id)
      : t.kind === "group"
      ? await ctx.store.groups.get(accountId, t.id)
      : await ctx.store.boards.get(accountId, t.id);
    if (found === null) {
      issues.push({ parameter: "target.id", message: `no ${t.kind} "${t.id}" in this account` });
    }
  }
  for (const [i, id] of (rule.routes ?? []).entries()) {
    if (await ctx.store.alertRoutes.get(accountId, id) === null) {
      issues.push({ parameter: `routes.${i}`, message: `no alert route "${id}" in this account` });
    }
  }
  if (issues.length) throw new InvalidRequest(issues);
}

/** The account's rules, oldest first. */
export async function listRules(
  ctx: AppContext,
  who: Caller,
  page: PageRequest,
): Promise<Page<RuleRecord>> {
  const account = accountFor(who, READ_ALERTS);
  const { items, total } = await ctx.store.alertRules.list(account.id, page);
  return pageOf([...items], total, page);
}

/** One of the account's rules. */
export async function getRule(ctx: AppContext, who: Caller, id: string): Promise<RuleRecord> {
  const account = accountFor(who, READ_ALERTS);
  const r = await ctx.store.alertRules.get(account.id, id);
  if (r === null) throw new NotFound("alert rule", id);
  return r;
}

/** Creates a rule (its target and routes must be the account's). */
export async function createRule(
  ctx: AppContext,
  who: Caller,
  input: unknown,
): Promise<RuleRecord> {
  const account = accountFor(who, WRITE_ALERTS);
  const r = parse(NewRuleInput, input);
  if (r.routes.length === 0 && r.escalation === null) {
    throw new InvalidRequest([{
      parameter: "routes",
      message: "a rule sends somewhere: give routes, an escalation policy, or both",
    }]);
  }
  if (r.level === null && !r.incidents && !r.maintenance && r.failingMinutes === null) {
    throw new InvalidRequest([{
      parameter: "level",
      message:
        "a rule watches a level, incidents, maintenance or failing readings: give at least one",
    }]);
  }
  await checkRefs(ctx, account.id, r);
  const made = await ctx.store.alertRules.create({
    id: `rule_${randomToken(12)}`,
    accountId: account.id,
    ...r,
    routes: [...new Set(r.routes)],
    createdAt: ctx.clock.now(),
  }, RULE_LIMIT);
  if (made === "limit" || made === "slug_taken") {
    throw new Forbidden(`This account already has ${RULE_LIMIT} alert rules, the most allowed`);
  }
  return made;
}

/** Changes a rule (`ifVersion`: the version the caller saw, or null). */
export async function updateRule(
  ctx: AppContext,
  who: Caller,
  id: string,
  input: unknown,
  ifVersion: number | null,
): Promise<RuleRecord> {
  const account = accountFor(who, WRITE_ALERTS);
  const patch = parse(RulePatchInput, input);
  await checkRefs(ctx, account.id, patch);
  const updated = await ctx.store.alertRules.update(
    account.id,
    id,
    {
      ...patch,
      ...(patch.routes ? { routes: [...new Set(patch.routes)] } : {}),
    },
    ctx.clock.now(),
    ifVersion,
  );
  if (updated === null) throw new NotFound("alert rule", id);
  if (updated === "conflict" || updated === "slug_taken") throw new PreconditionFailed();
  return updated;
}

/** Deletes a rule (what it already queued still goes). */
export async function deleteRule(
  ctx: AppContext,
  who: Caller,
  id: string,
  ifVersion: number | null,
): Promise<void> {
  const account = accountFor(who, WRITE_ALERTS);
  const done = await ctx.store.alertRules.delete(account.id, id, ifVersion);
  if (done === false) throw new NotFound("alert rule", id);
  if (done === "conflict") throw new PreconditionFailed();
}

// ---------------------------------------------------------------------------------------------
// The evaluator

const hash = (...parts: (string | number)[]) =>
  encodeHexLowerCase(sha256(new TextEncoder().encode(parts.join("\u0000")))).slice(0, 24);

/** The monitors a rule watches (existing ones). */
async function monitorsOf(
  ctx: AppContext,
  rule: { readonly accountId: string; readonly target: RuleTarget },
  cache: Map<string, MonitorRecord[]>,
): Promise<MonitorRecord[]> {
  let all = cache.get(rule.accountId);
  if (!all) {
    all = [];
    for (let page = 0;; page++) {
      const { items } = await ctx.store.monitors.list(rule.accountId, { page, limit: 500 });
      all.push(...items);
      if (items.length < 500) break;
    }
    cache.set(rule.accountId, all);
  }
  const t = rule.target;
  if (t.kind === "all") return all;
  if (t.kind === "monitor") return all.filter((m) => m.id === t.id);
  if (t.kind === "group") {
    const g = await ctx.store.groups.get(rule.accountId, t.id);
    return g ? all.filter((m) => g.monitorIds.includes(m.id)) : [];
  }
  const b = await ctx.store.boards.get(rule.accountId, t.id);
  if (!b) return [];
  const ids = new Set<string>();
  for (const item of b.items) {
    if (item.kind === "monitor") ids.add(item.id);
    else {
      const g = await ctx.store.groups.get(rule.accountId, item.id);
      for (const id of g?.monitorIds ?? []) ids.add(id);
    }
  }
  return all.filter((m) => ids.has(m.id));
}

/** Settings › Alerts, where the account reads every delivery. */
function alertsPage(ctx: AppContext): string {
  return `${ctx.settings.publicUrl}/settings/alerts`;
}

/** True when `change` concerns what `m` watches. */
function concerns(change: Change, m: MonitorRecord): boolean {
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
  ctx: AppContext,
  rule: { readonly name: string },
  m: MonitorRecord,
  change: Change,
  notificationId: string,
  trigger: AlertTrigger,
  level: StatusLevel,
  previous: StatusLevel | null,
): Promise<AlertMessage> {
  const service = await getService(ctx, m.serviceSlug).catch(() => null);
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
  const what = trigger === "recovered"
    ? `${label} recovered: ${levelNoun(level)}`
    : incident
    ? `${label}: ${incident.title}`
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
      : `Check ${name}'s status page for updates; statusd tells you when it recovers.`,
    links: { alerts: alertsPage(ctx) },
    sentBecause: rule.name,
    at: change.at,
  };
}

/** Deliveries of `message` to each of the rule's routes. */
function toRoutes(
  rule: RuleRecord,
  message: AlertMessage,
  change: Change,
  subject: string,
  notBefore: number,
  recovery: boolean,
  routes: readonly string[] = rule.routes,
): NewDelivery[] {
  return routes.map((routeId) => ({
    id: `dlv_${hash(rule.id, subject, change.id, routeId, recovery ? "r" : "a")}`,
    accountId: rule.accountId,
    routeId,
    source: { kind: "rule", id: rule.id },
    changeId: change.id,
    notificationId: message.notificationId,
    subject,
    step: 0,
    recovery,
    message,
    notBefore,
    createdAt: change.at,
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
  const out = toRoutes(rule, message, change, subject, at, false);
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

/**
 * One evaluation round: the changes after the cursor (at most 500) against every enabled rule,
 * written to the outbox with the cursor move. Resolves with how many changes it read. The first
 * round of a new installation starts at the newest change (history is not re-alerted).
 */
export async function evaluateAlerts(ctx: AppContext): Promise<number> {
  const d = ctx.store.deliveries;
  let from = await d.cursor(EVALUATOR_CURSOR);
  if (from === null) {
    const latest = await ctx.store.changes.latestId();
    const r = await d.enqueue([], { cursor: { name: EVALUATOR_CURSOR, from: 0, to: latest } });
    if (r === "stale_cursor") return 0;
    from = latest;
  }
  const changes = await ctx.store.changes.after(from, BATCH);
  if (changes.length === 0) return 0;
  const rules = await ctx.store.alertRules.enabled();
  const subscriptions = await ctx.store.subscriptions.active();
  const out: NewDelivery[] = [];
  const cancel: string[] = [];
  const monitors = new Map<string, MonitorRecord[]>();
  const now = ctx.clock.now();
  /** Per rule and subject: an alert is open, its notification, and whether it still waits. */
  const states = new Map<
    string,
    { open: boolean; notificationId: string | null; waiting: boolean }
  >();
  const stateOf = async (rule: RuleRecord, subject: string) => {
    const key = `${rule.id}|${subject}`;
    const known = states.get(key);
    if (known) return known;
    const last = await d.latestFor(rule.id, subject);
    const open = last !== null && !last.recovery && last.state !== "cancelled";
    const state = {
      open,
      notificationId: last?.notificationId ?? null,
      // Waiting: still inside forMinutes from the change that fired it, so nothing went yet.
      waiting: open && rule.forMinutes > 0 && now < last!.createdAt + rule.forMinutes * 60_000,
    };
    states.set(key, state);
    return state;
  };
  for (const change of changes) {
    for (const rule of rules) {
      for (const m of await monitorsOf(ctx, rule, monitors)) {
        if (!concerns(change, m)) continue;
        const subject = `monitor:${m.id}`;
        if (change.kind === "incident") {
          const trigger = incidentTrigger(change);
          const maintenance = trigger.startsWith("maintenance");
          if (maintenance ? !rule.maintenance : !rule.incidents) continue;
          // An incident's notification has its own subject: its deliveries never stand for the
          // monitor's status alert (whose recovery must resolve the status alert's key).
          const about = `${subject}:incident:${change.incidentId}`;
          const notificationId = `ntf_${hash(rule.id, subject, "incident", change.incidentId)}`;
          if (trigger === "incident_resolved") {
            // A resolve only follows its trigger (stored, or queued in this round), once.
            const mine = out.filter((x) => x.notificationId === notificationId);
            if (mine.some((x) => x.recovery)) continue;
            if (!mine.length) {
              const last = await d.latestFor(rule.id, about);
              if (last === null || last.recovery) continue;
            }
          }
          const msg = await messageFor(
            ctx,
            { name: `rule ${rule.name}` },
            m,
            change,
            notificationId,
            trigger,
            (await viewOf(ctx, m)).currentStatus,
            null,
          );
          out.push(...toRoutes(rule, msg, change, about, now, trigger === "incident_resolved"));
          continue;
        }
        if (rule.level === null) continue;
        const level = (await viewOf(ctx, m)).currentStatus;
        const fired = reached(level, rule.level);
        if (fired === null) continue; // UNKNOWN: neither fired nor recovered
        const s = await stateOf(rule, subject);
        if (fired && !s.open) {
          const notificationId = `ntf_${hash(rule.id, subject, change.id)}`;
          const msg = await messageFor(
            ctx,
            { name: `rule ${rule.name}` },
            m,
            change,
            notificationId,
            "status",
            level,
            change.kind === "status" ? change.from : null,
          );
          out.push(
            ...await firing(ctx, rule, msg, change, subject, now + rule.forMinutes * 60_000),
          );
          states.set(`${rule.id}|${subject}`, {
            open: true,
            notificationId,
            waiting: rule.forMinutes > 0,
          });
        } else if (!fired && s.open && s.notificationId) {
          if (s.waiting) {
            // A flap shorter than forMinutes: nothing goes.
            const queued = out.filter((x) => x.notificationId === s.notificationId);
            if (queued.length) out.splice(0, out.length, ...out.filter((x) => !queued.includes(x)));
            else cancel.push(s.notificationId);
          } else {
            // Escalation steps still waiting stop with the recovery (queued or stored).
            const id = s.notificationId;
            const kept = out.filter((x) =>
              !(x.notificationId === id && x.step > 0 && x.notBefore > now)
            );
            out.splice(0, out.length, ...kept);
            cancel.push(id);
          }
          if (!s.waiting) {
            const msg = await messageFor(
              ctx,
              { name: `rule ${rule.name}` },
              m,
              change,
              s.notificationId,
              "recovered",
              level,
              change.kind === "status" ? change.from : null,
            );
            // Told where the alert was first told: the rule's routes and the first step's.
            const policy = rule.escalation
              ? await ctx.store.escalations.get(rule.accountId, rule.escalation)
              : null;
            const told = [...new Set([...rule.routes, ...(policy?.steps[0]?.routes ?? [])])];
            if (rule.recovery) out.push(...toRoutes(rule, msg, change, subject, now, true, told));
            else {
              // No recovery to send, but the alert ended: a marker, so the next rise is a new
              // alert (without it the last trigger would read as still open, and stay silent).
              out.push(
                ...toRoutes(rule, msg, change, subject, now, true, told.slice(0, 1))
                  .map((x) => ({ ...x, closing: true as const })),
              );
            }
          }
          states.set(`${rule.id}|${subject}`, {
            open: false,
            notificationId: null,
            waiting: false,
          });
        }
      }
    }
  }
  for (const change of changes) {
    for (const sub of subscriptions) {
      for (const m of await monitorsOf(ctx, sub, monitors)) {
        if (!concerns(change, m)) continue;
        const level = (await viewOf(ctx, m)).currentStatus;
        const trigger: AlertTrigger = change.kind === "incident"
          ? incidentTrigger(change)
          : "status";
        const notificationId = `ntf_${hash(sub.id, m.id, change.id)}`;
        const msg = await messageFor(
          ctx,
          { name: `subscription to ${sub.target.kind} ${sub.target.id}` },
          m,
          change,
          notificationId,
          trigger,
          level,
          change.kind === "status" ? change.from : null,
        );
        const routeId = sub.channel.kind === "route" ? sub.channel.routeId : sub.id;
        out.push({
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
          message: { ...msg, links: { unsubscribe: unsubscribeLink(ctx, sub) } },
          notBefore: now,
          createdAt: change.at,
        });
      }
    }
  }
  const to = changes[changes.length - 1]!.id;
  const r = await d.enqueue(out, {
    cursor: { name: EVALUATOR_CURSOR, from, to },
    ...(cancel.length
      ? { cancel: { notificationIds: cancel, state: "cancelled" as const, dueAfter: now } }
      : {}),
  });
  if (r === "stale_cursor") return 0; // another instance took this batch
  if (r.inserted > 0) ctx.wakeDeliveries?.();
  return changes.length;
}

/**
 * The readings pass: rules with `failingMinutes` fire when statusd has failed to read a watched
 * vendor for that long (one alert per failure run: its id comes from when the run began) and
 * recover when a reading succeeds again. Resolves with how many deliveries it queued.
 */
export async function evaluateReadings(ctx: AppContext): Promise<number> {
  const rules = (await ctx.store.alertRules.enabled()).filter((r) => r.failingMinutes);
  if (rules.length === 0) return 0;
  const now = ctx.clock.now();
  const monitors = new Map<string, MonitorRecord[]>();
  const out: NewDelivery[] = [];
  const cancel: string[] = [];
  for (const rule of rules) {
    for (const m of await monitorsOf(ctx, rule, monitors)) {
      if (m.paused) continue;
      const view = await viewOf(ctx, m);
      const reading = view.reading;
      const subject = `reading:${m.id}`;
      const last = await ctx.store.deliveries.latestFor(rule.id, subject);
      const open = last !== null && !last.recovery && last.state !== "cancelled";
      const failingFor = reading?.state === "failing" && reading.error
        ? now - reading.error.since
        : null;
      const name = view.serviceName ?? m.serviceSlug;
      const base = {
        level: "UNKNOWN" as const,
        previousLevel: null,
        service: {
          slug: m.serviceSlug,
          name,
          vendorUrl: `${ctx.settings.publicUrl}/services/${m.serviceSlug}`,
          statusdUrl: `${ctx.settings.publicUrl}/services/${m.serviceSlug}`,
        },
        components: [],
        componentsTotal: 0,
        incident: null,
        timeToResolve: null,
        links: { alerts: alertsPage(ctx) },
        sentBecause: `rule ${rule.name}`,
        at: now,
      };
      const deliver = (message: AlertMessage, recovery: boolean, key: string) => {
        const routes = recovery ? rule.routes : rule.routes;
        for (const routeId of routes) {
          out.push({
            id: `dlv_${hash(rule.id, subject, key, routeId, recovery ? "r" : "a")}`,
            accountId: rule.accountId,
            routeId,
            source: { kind: "rule", id: rule.id },
            changeId: null,
            notificationId: message.notificationId,
            subject,
            step: 0,
            recovery,
            message,
            notBefore: now,
            createdAt: now,
          });
        }
      };
      if (failingFor !== null && failingFor >= rule.failingMinutes! * 60_000 && !open) {
        const since = reading!.error!.since;
        const notificationId = `ntf_${hash(rule.id, subject, since)}`;
        deliver(
          {
            ...base,
            notificationId,
            trigger: "reading_failing",
            summary: `statusd cannot read ${name}`.slice(0, 300),
            advice: `${reading!.summary}. Its status is unknown until a reading succeeds; check ` +
              "the vendor's status page yourself meanwhile.",
          },
          false,
          String(since),
        );
      } else if (failingFor === null && open && reading?.state !== "never_read") {
        cancel.push(last!.notificationId);
        if (rule.recovery) {
          deliver(
            {
              ...base,
              level: view.currentStatus,
              notificationId: last!.notificationId,
              trigger: "recovered",
              summary: `statusd reads ${name} again`.slice(0, 300),
              advice: "Nothing to do: readings succeed again.",
            },
            true,
            last!.notificationId,
          );
        }
      }
    }
  }
  if (out.length === 0 && cancel.length === 0) return 0;
  const r = await ctx.store.deliveries.enqueue(out, {
    ...(cancel.length
      ? { cancel: { notificationIds: cancel, state: "cancelled" as const, dueAfter: now } }
      : {}),
  });
  if (r !== "stale_cursor" && r.inserted > 0) ctx.wakeDeliveries?.();
  return r === "stale_cursor" ? 0 : r.inserted;
}

/** Runs {@link evaluateAlerts} after every committed change batch and every `everyMs`. */
export function startAlertEvaluator(ctx: AppContext, everyMs = 2_000): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        while (!stopped && await evaluateAlerts(ctx) === BATCH);
        if (!stopped) await evaluateReadings(ctx);
      } catch (err) {
        ctx.log.error("alert evaluation failed", { err: String(err) });
      }
    })().finally(() => {
      running = null;
      if (again) {
        again = false;
        run();
      }
    });
  };
  const unsubscribe = ctx.store.changes.subscribe(() => run());
  const timer = setInterval(run, everyMs);
  run();
  return {
    async stop() {
      stopped = true;
      unsubscribe();
      clearInterval(timer);
      await running;
    },
  };
}
