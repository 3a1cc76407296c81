/**
 * The readings pass of the alert evaluator: rules with `failingMinutes` fire when statusd has
 * failed to read a watched vendor for that long, and recover when a reading succeeds again.
 * @module
 */
import {
  type AlertMessage,
  type EpochMs,
  errorWords,
  type MonitorRecord,
  type RuleRecord,
} from "../domain/mod.ts";
import type { AppContext } from "./context.ts";
import { endOwnAlert, enqueueTimed, hash, Outbox, ownAlertBase, toRoutes } from "./alert_outbox.ts";
import { type ReadingOfService, Round, watchersOf } from "./alert_round.ts";

/** How often a service still failing is looked at again (rules and monitors added meanwhile). */
const FAILING_REFRESH_MS = 60_000;

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
