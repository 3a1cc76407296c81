/**
 * The early-warning pass of the alert evaluator: rules with `earlyWarning` fire when statusd's
 * own eyes suspect trouble at a watched vendor, once per warning, and tell of the recovery when
 * it clears. A rule hears of the public warning (statusd's probes, or reports of several
 * long-standing accounts) and of its own account's reports, never of another account's. The
 * alert says it is statusd's observation, not the vendor's, in one coherent sentence with the
 * level the vendor's page reads. Like the readings pass, a round reads only the vendors with an
 * open warning and the reports of the last 30 minutes, and does more only for a warning that
 * began or ended.
 * @module
 */
import {
  type AlertMessage,
  type EpochMs,
  monitorLevelNow,
  type MonitorRecord,
  REPORT_WINDOW_MS,
  type RuleRecord,
  toIso,
} from "../domain/mod.ts";
import { endOwnAlert, enqueueTimed, hash, Outbox, ownAlertBase, toRoutes } from "./alert_outbox.ts";
import { Round, watchersOf } from "./alert_round.ts";
import type { AppContext } from "./context.ts";
import {
  accountWarningOf,
  type EarlyWarning,
  earlyWarningOf,
  openEpisodes,
  type VendorWords,
} from "./own_eyes.ts";

/** A warning a rule may hear of: its first evidence, whether public, and how it reads. */
interface Heard {
  readonly first: EpochMs;
  readonly visibility: EarlyWarning["visibility"];
  readonly view: (vendor: VendorWords) => EarlyWarning;
}

/** What the pass remembers between rounds. */
interface WarningsMemory {
  /** Per slug, what was heard last round: a signature of its warnings. */
  readonly seen: Map<string, string>;
  /** Per alert subject (a monitor), the warning its open alert is about. */
  readonly alerts: Map<string, { readonly slug: string; readonly heard: Heard }>;
  started: boolean;
}

const memories = new WeakMap<AppContext, WarningsMemory>();

/** The subject of a rule's early-warning alert about monitor `m`. */
const subjectOf = (m: MonitorRecord) => `warning:${m.id}`;

/** The warnings of one round: public ones by slug, each account's own by account and slug. */
interface Warnings {
  readonly public: Map<string, Heard>;
  readonly own: Map<string, Heard>;
}

const ownKey = (accountId: string, slug: string) => `${accountId}\u0000${slug}`;

async function warningsNow(ctx: AppContext, now: EpochMs): Promise<Warnings> {
  const out: Warnings = { public: new Map(), own: new Map() };
  for (const [slug, e] of await openEpisodes(ctx)) {
    out.public.set(slug, {
      first: e.firstEvidenceAt,
      visibility: "public",
      view: (vendor) => earlyWarningOf(e, vendor),
    });
  }
  for (const r of await ctx.store.warnings.accountReports(now - REPORT_WINDOW_MS)) {
    out.own.set(ownKey(r.accountId, r.slug), {
      first: r.firstAt,
      visibility: "account",
      view: (vendor) => accountWarningOf(r, null, vendor),
    });
  }
  return out;
}

/** What a rule of `accountId` hears about `slug`: the public warning, else its account's own. */
function heardBy(w: Warnings, accountId: string, slug: string): Heard | null {
  return w.public.get(slug) ?? w.own.get(ownKey(accountId, slug)) ?? null;
}

/** One slug's warnings as a comparable string (which changed since the last round). */
function signatureOf(w: Warnings, slug: string): string {
  const own = [...w.own].filter(([k]) => k.endsWith(`\u0000${slug}`)).map(([k]) => k).sort();
  return JSON.stringify([w.public.get(slug)?.first ?? null, own]);
}

/**
 * One round: queues an alert for each rule with `earlyWarning` watching a vendor whose warning
 * (as the rule's account sees it) began since the last round, and ends (recovers) the alerts of
 * warnings that ended. An alert stays one alert while any warning of it lasts (its account's
 * reports becoming public, or the other way); a new public episode after one ended is a new
 * alert. Resolves with how many deliveries it queued.
 */
export async function evaluateWarnings(ctx: AppContext): Promise<number> {
  let memory = memories.get(ctx);
  if (!memory) {
    memory = { seen: new Map(), alerts: new Map(), started: false };
    memories.set(ctx, memory);
  }
  const round = new Round(ctx);
  const w = await warningsNow(ctx, round.now);
  const slugs = new Set<string>();
  const now = new Map<string, string>();
  for (const slug of w.public.keys()) slugs.add(slug);
  for (const key of w.own.keys()) slugs.add(key.slice(key.indexOf("\u0000") + 1));
  for (const slug of slugs) now.set(slug, signatureOf(w, slug));
  const changed = new Set<string>();
  for (const [slug, sig] of now) if (memory.seen.get(slug) !== sig) changed.add(slug);
  for (const slug of memory.seen.keys()) if (!now.has(slug)) changed.add(slug);
  /** Alerts sent before a restart, to end once their warning has. */
  const restored = new Map<string, { readonly accountId: string; readonly ruleId: string }>();
  if (!memory.started) {
    for (const d of await ctx.store.deliveries.unresolved("warning:")) {
      const m = await ctx.store.monitors.get(d.accountId, d.subject!.slice("warning:".length));
      if (m) {
        changed.add(m.serviceSlug);
        restored.set(`${d.source.id}|${d.subject}`, {
          accountId: d.accountId,
          ruleId: d.source.id!,
        });
      }
    }
    // Warnings open now are queued again: their deliveries' ids are those of the alerts that
    // went before the restart, so nothing is sent twice.
    for (const slug of slugs) changed.add(slug);
    memory.started = true;
  }
  memory.seen.clear();
  for (const [slug, sig] of now) memory.seen.set(slug, sig);
  if (changed.size === 0) return 0;
  const watchers = (await watchersOf(round, [...changed], false)).rules;
  const out = new Outbox();
  for (const slug of changed) {
    for (const { source: rule, monitor } of watchers.get(slug) ?? []) {
      if (!rule.earlyWarning) continue;
      const key = `${rule.id}|${subjectOf(monitor)}`;
      const heard = heardBy(w, rule.accountId, slug);
      const open = memory.alerts.get(key);
      const wasOpen = open !== undefined || restored.has(key);
      const renewed = open !== undefined && heard !== null && heard.visibility === "public" &&
        open.heard.visibility === "public" && open.heard.first !== heard.first;
      if (wasOpen && (heard === null || renewed)) {
        await endOwnAlert(round, rule, monitor, subjectOf(monitor), (name) => ({
          summary: `statusd's own checks of ${name} recovered`,
          advice: `Nothing to do: statusd's own checks of ${name} see no trouble since ` +
            `${toIso(round.now)}.`,
        }), out);
        memory.alerts.delete(key);
        if (heard === null) continue;
      } else if (wasOpen) {
        // Still the same alert (or one sent before a restart): nothing new to say.
        memory.alerts.set(key, { slug, heard: open?.heard ?? heard! });
        continue;
      }
      if (heard === null || !rule.enabled) continue;
      memory.alerts.set(key, { slug, heard });
      out.items.push(...await warningAlert(round, rule, monitor, heard));
    }
  }
  return await enqueueTimed(ctx, out, round.now);
}

/** A rule's deliveries telling of `heard` about `m`: one sentence, with the vendor's level. */
async function warningAlert(
  round: Round,
  rule: RuleRecord,
  m: MonitorRecord,
  heard: Heard,
): Promise<ReturnType<typeof toRoutes>> {
  const service = await round.service(m.serviceSlug);
  const name = service?.name ?? m.serviceSlug;
  const level = monitorLevelNow(service, m.components);
  const view = heard.view({ name, level });
  const summary = view.phase === "suspected"
    ? `statusd suspects trouble at ${name} (its own observation)`
    : `statusd's own checks see trouble at ${name}, which ${name} has acknowledged`;
  const message: AlertMessage = {
    ...ownAlertBase(round, rule, m, service),
    level,
    notificationId: `ntf_${hash(rule.id, subjectOf(m), heard.first)}`,
    trigger: "early_warning",
    summary: summary.slice(0, 300),
    advice: `${view.summary} This is statusd's own observation, not ${name}'s status. ` +
      "You will be told when statusd's checks recover.",
  };
  const cause = { key: String(heard.first), changeId: null, createdAt: round.now };
  return toRoutes(rule, message, cause, subjectOf(m), round.now, false);
}
