/**
 * The early-warning pass of the alert evaluator: rules with `earlyWarning` fire when statusd's
 * own eyes (its probes of a watched vendor's endpoints, or members' reports) suspect trouble,
 * once per episode, and tell of the recovery when the warning clears. The alert says it is
 * statusd's observation, not the vendor's. Like the readings pass, a round reads only the
 * vendors with an open warning (an index of few rows) and does more only for an episode that
 * began or ended.
 * @module
 */
import {
  type AlertMessage,
  type EpochMs,
  monitorLevelNow,
  type MonitorRecord,
  type RuleRecord,
  toIso,
} from "../domain/mod.ts";
import { alertsPage, hash, Outbox, Round, toRoutes, watchersOf } from "./alert_evaluator.ts";
import type { AppContext } from "./context.ts";
import { earlyWarningOf } from "./own_eyes.ts";

/** What the pass remembers between rounds: each open episode by slug (its first evidence). */
interface WarningsMemory {
  readonly open: Map<string, EpochMs>;
  started: boolean;
}

const memories = new WeakMap<AppContext, WarningsMemory>();

/** The subject of a rule's early-warning alert about monitor `m`. */
const subjectOf = (m: MonitorRecord) => `warning:${m.id}`;

/**
 * One round: queues an alert for each rule with `earlyWarning` watching a vendor whose episode
 * began since the last round, and ends (recovers) the alerts of episodes that ended. Resolves
 * with how many deliveries it queued.
 */
export async function evaluateWarnings(ctx: AppContext): Promise<number> {
  let memory = memories.get(ctx);
  if (!memory) {
    memory = { open: new Map(), started: false };
    memories.set(ctx, memory);
  }
  const round = new Round(ctx);
  const open = new Map<string, ReturnType<typeof earlyWarningOf> & { first: EpochMs }>();
  for (const w of await ctx.store.warnings.open()) {
    const e = w.state.episode;
    if (e !== null && e.clearedAt === null) {
      open.set(w.slug, { ...earlyWarningOf(e), first: e.firstEvidenceAt });
    }
  }
  const ending = new Set<string>();
  for (const [slug, first] of memory.open) {
    if (open.get(slug)?.first !== first) ending.add(slug);
  }
  if (!memory.started) {
    // After a restart: alerts sent before it still end when their warning has.
    for (const d of await ctx.store.deliveries.unresolved("warning:")) {
      const m = await ctx.store.monitors.get(d.accountId, d.subject!.slice("warning:".length));
      if (m && !open.has(m.serviceSlug)) ending.add(m.serviceSlug);
    }
    // Episodes open now are queued again: their deliveries' ids are those of the alerts that
    // went before the restart, so nothing is sent twice.
    memory.started = true;
  }
  const starting = [...open].filter(([slug, w]) => memory!.open.get(slug) !== w.first);
  if (ending.size === 0 && starting.length === 0) return 0;
  const slugs = [...new Set([...ending, ...starting.map(([slug]) => slug)])];
  const watchers = (await watchersOf(round, slugs, false)).rules;
  const out = new Outbox();
  for (const slug of ending) {
    for (const { source: rule, monitor } of watchers.get(slug) ?? []) {
      if (rule.earlyWarning) await endWarningAlert(round, rule, monitor, out);
    }
    memory.open.delete(slug);
  }
  for (const [slug, w] of starting) {
    const service = await ctx.store.catalog.service(slug);
    for (const { source: rule, monitor } of watchers.get(slug) ?? []) {
      if (!rule.earlyWarning || !rule.enabled) continue;
      const name = service?.name ?? slug;
      const message: AlertMessage = {
        ...base(round, rule, monitor, name, service?.statusPageUrl ?? null),
        notificationId: `ntf_${hash(rule.id, subjectOf(monitor), w.first)}`,
        trigger: "early_warning",
        summary: `statusd suspects trouble at ${name} (its own observation)`.slice(0, 300),
        advice: `${w.summary} This is statusd's own observation, not ${name}'s status, which ` +
          `still reads ${
            service?.currentStatus.toLowerCase().replaceAll("_", " ") ?? "unknown"
          }. ` +
          "Check what depends on it; you will be told when statusd's checks recover.",
      };
      const cause = { key: String(w.first), changeId: null, createdAt: round.now };
      out.items.push(...toRoutes(rule, message, cause, subjectOf(monitor), round.now, false));
    }
    memory.open.set(slug, w.first);
  }
  if (out.items.length === 0 && out.cancel.length === 0) return 0;
  const r = await ctx.store.deliveries.enqueue(out.linked(ctx), {
    ...(out.cancel.length
      ? {
        cancel: { notificationIds: out.cancel, state: "cancelled" as const, dueAfter: round.now },
      }
      : {}),
  });
  if (r === "stale_cursor") return 0;
  if (r.inserted > 0) ctx.wakeDeliveries?.();
  return r.inserted;
}

/** What an early-warning alert says besides its trigger. */
function base(
  round: Round,
  rule: RuleRecord,
  m: MonitorRecord,
  name: string,
  statusPageUrl: string | null,
): Omit<AlertMessage, "notificationId" | "trigger" | "summary" | "advice"> {
  const publicUrl = round.ctx.settings.publicUrl;
  return {
    level: "UNKNOWN",
    previousLevel: null,
    service: {
      slug: m.serviceSlug,
      name,
      vendorUrl: statusPageUrl ?? `${publicUrl}/services/${m.serviceSlug}`,
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

/** Ends the rule's open early-warning alert about `m` with its recovery (when the rule asks). */
async function endWarningAlert(
  round: Round,
  rule: RuleRecord,
  m: MonitorRecord,
  out: Outbox,
): Promise<void> {
  const subject = subjectOf(m);
  const last = await round.ctx.store.deliveries.latestFor(rule.id, subject);
  if (last === null || last.recovery || last.state === "cancelled") return;
  const service = await round.service(m.serviceSlug);
  const name = service?.name ?? m.serviceSlug;
  const message: AlertMessage = {
    ...base(round, rule, m, name, service?.statusPageUrl ?? null),
    level: monitorLevelNow(service, m.components),
    notificationId: last.notificationId,
    trigger: "recovered",
    summary: `statusd's own checks of ${name} recovered`.slice(0, 300),
    advice: `Nothing to do: statusd's own checks of ${name} see no trouble since ` +
      `${toIso(round.now)}.`,
  };
  const cause = { key: last.notificationId, changeId: null, createdAt: round.now };
  const deliveries = toRoutes(rule, message, cause, subject, round.now, true);
  out.items.push(
    ...(rule.recovery
      ? deliveries
      : deliveries.slice(0, 1).map((x) => ({ ...x, closing: true as const }))),
  );
}
