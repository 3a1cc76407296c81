/**
 * The early-warning pass of the alert evaluator: rules with `earlyWarning` fire when statusd's
 * own eyes (its probes of a watched vendor's endpoints, or members' reports) suspect trouble,
 * once per episode, and tell of the recovery when the warning clears. The alert says it is
 * statusd's observation, not the vendor's. Like the readings pass, a round reads only the
 * vendors with an open warning (an index of few rows) and does more only for an episode that
 * began or ended.
 * @module
 */
import { type AlertMessage, type EpochMs, type MonitorRecord, toIso } from "../domain/mod.ts";
import {
  endOwnAlert,
  enqueueTimed,
  hash,
  Outbox,
  ownAlertBase,
  Round,
  toRoutes,
  watchersOf,
} from "./alert_evaluator.ts";
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
      if (rule.earlyWarning) {
        await endOwnAlert(round, rule, monitor, subjectOf(monitor), (name) => ({
          summary: `statusd's own checks of ${name} recovered`,
          advice: `Nothing to do: statusd's own checks of ${name} see no trouble since ` +
            `${toIso(round.now)}.`,
        }), out);
      }
    }
    memory.open.delete(slug);
  }
  for (const [slug, w] of starting) {
    const service = await ctx.store.catalog.service(slug);
    for (const { source: rule, monitor } of watchers.get(slug) ?? []) {
      if (!rule.earlyWarning || !rule.enabled) continue;
      const name = service?.name ?? slug;
      const message: AlertMessage = {
        ...ownAlertBase(round, rule, monitor, service),
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
  return await enqueueTimed(ctx, out, round.now);
}
