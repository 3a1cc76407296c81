/**
 * What statusd saw of a vendor with its own eyes (probes and members' reports), apart from what
 * the vendor says: the early warning open now, the vendor's acknowledgement record and grade,
 * and the verb members report trouble with. Shared by REST, MCP, the web pages and the CLI.
 * @module
 */
import { z } from "zod";
import {
  type AccountReports,
  acknowledgedEpisode,
  type Acknowledgement,
  acknowledgementWords,
  ackRecordOf,
  ANONYMOUS,
  DAY_MS,
  delayOf,
  type EpochMs,
  GRADE_WINDOW_DAYS,
  HOUR_MS,
  MINUTE_MS,
  probeTargetsOf,
  RateLimited,
  REPORT_WINDOW_MS,
  REPORTER_STANDING_MS,
  type ReportRecord,
  type StoredWarning,
  toIso,
  utcTimeOfDay,
  type WarningEpisode,
  warningWords,
  type WarningWordsContext,
} from "../domain/mod.ts";
import { requireService, serviceNotFound } from "./catalog.ts";
import type { AppContext } from "./context.ts";
import { parse, READ_MONITORS } from "./monitors.ts";
import { type Access, type Caller, callerAccount } from "./policy.ts";
import type { EarlyWarning, OwnEyes, ProbeTarget } from "../domain/mod.ts";

/** What the words of a warning say of its vendor: its name and the level its page reads. */
export type VendorWords = Pick<WarningWordsContext, "name" | "level">;

/** The public early warning of `episode` (open), in the shape surfaces show. */
export function earlyWarningOf(episode: WarningEpisode, vendor: VendorWords = {}): EarlyWarning {
  const delay = delayOf(episode);
  return {
    phase: episode.acknowledgedAt === null ? "suspected" : "acknowledged",
    since: toIso(episode.firstEvidenceAt),
    suspectedAt: toIso(episode.suspectedAt),
    acknowledgedAt: episode.acknowledgedAt === null ? null : toIso(episode.acknowledgedAt),
    vendorClaimedStart: episode.claimedStartAt === null || episode.claimedStartAt === undefined
      ? null
      : toIso(episode.claimedStartAt),
    delayMinutes: delay === null ? null : Math.round(delay / 60_000),
    evidence: episode.evidence,
    probes: { failed: episode.failed, total: episode.total, hosts: [...episode.hosts] },
    reporters: episode.reporters,
    component: null,
    summary: warningWords(episode, vendor),
    visibility: "public",
    ownObservation: true,
  };
}

/**
 * The warning an account's own reports give that account alone (acknowledged when statusd saw
 * the vendor admit trouble at `acknowledgedAt`).
 */
export function accountWarningOf(
  r: AccountReports,
  ack: Acknowledgement | null,
  vendor: VendorWords = {},
): EarlyWarning {
  const name = vendor.name ?? r.slug;
  const acknowledgedAt = ack?.at ?? null;
  const episode: WarningEpisode = {
    firstEvidenceAt: r.firstAt,
    suspectedAt: r.firstAt,
    acknowledgedAt,
    claimedStartAt: ack?.claimedStartAt ?? null,
    clearedAt: null,
    evidence: "reports",
    failed: 0,
    total: 0,
    hosts: [],
    reporters: 0,
  };
  const delay = delayOf(episode);
  const who = r.reporters === 1 ? "1 member" : `${r.reporters} members`;
  return {
    phase: acknowledgedAt === null ? "suspected" : "acknowledged",
    since: toIso(r.firstAt),
    suspectedAt: toIso(r.firstAt),
    acknowledgedAt: acknowledgedAt === null ? null : toIso(acknowledgedAt),
    vendorClaimedStart: ack === null || ack.claimedStartAt === null
      ? null
      : toIso(ack.claimedStartAt),
    delayMinutes: delay === null ? null : Math.round(delay / 60_000),
    evidence: "reports",
    probes: { failed: 0, total: 0, hosts: [] },
    reporters: r.reporters,
    component: r.component,
    summary:
      `${who} of your account reported ${name} not working since ${utcTimeOfDay(r.firstAt)}${
        r.component ? ` (${r.component})` : ""
      }; ${
        acknowledgementWords(episode, { ...vendor, name })
      }. Only your account sees this warning: statusd shows it to others once its own checks, or ` +
      "several long-standing accounts, see the trouble too.",
    visibility: "account",
    ownObservation: true,
  };
}

/** Back-dated incidents shown at most on a service's honesty record. */
export const BACKDATED_SHOWN = 5;

/**
 * The warning `stored` shows now, if open: acknowledged as soon as a reading showed the vendor
 * admitting it (the prober's next round only records what surfaces already say).
 */
async function openEpisodeOf(
  ctx: AppContext,
  stored: StoredWarning | null,
  now: EpochMs,
): Promise<WarningEpisode | null> {
  const e = stored?.state.episode ?? null;
  if (e === null || e.clearedAt !== null) return null;
  if (e.acknowledgedAt !== null) return e;
  return acknowledgedEpisode(
    e,
    await ctx.store.warnings.acknowledgedAt(stored!.vendorId, e.firstEvidenceAt, now),
  );
}

/** The service's name and the level its page reads now, for the words of a warning. */
async function vendorWords(ctx: AppContext, slug: string): Promise<VendorWords & { id: number }> {
  const row = await ctx.store.catalog.service(slug);
  return row === null ? { id: 0 } : { id: row.id, name: row.name, level: row.currentStatus };
}

/**
 * The caller's own account's warning of `slug` from its members' reports of the last 30
 * minutes; null for callers without an account, or without such reports.
 */
export async function accountWarning(
  ctx: AppContext,
  who: Caller,
  slug: string,
): Promise<EarlyWarning | null> {
  if (who.kind === "anonymous") return null;
  const now = ctx.clock.now();
  const [r] = await ctx.store.warnings.accountReports(now - REPORT_WINDOW_MS, {
    accountId: who.account.id,
    slug,
  });
  if (r === undefined) return null;
  const vendor = await vendorWords(ctx, slug);
  const ack = vendor.id === 0
    ? null
    : await ctx.store.warnings.acknowledgedAt(vendor.id, r.firstAt, now);
  return accountWarningOf(r, ack, vendor);
}

/**
 * One service's {@link OwnEyes} as `who` sees them: the public warning, else (for a caller with
 * an account) its own account's. It does not look the service up: its callers read the service
 * itself (and answer NotFound for an unknown slug); a slug statusd never saw reads as nothing.
 */
export async function ownEyesOf(
  ctx: AppContext,
  slug: string,
  who: Caller = ANONYMOUS,
): Promise<OwnEyes> {
  const now = ctx.clock.now();
  const since = now - GRADE_WINDOW_DAYS * DAY_MS;
  const [stored, episodes, backdated, probed] = await Promise.all([
    ctx.store.warnings.of(slug),
    ctx.store.warnings.episodes(slug, since),
    ctx.store.warnings.backdated(slug, since, BACKDATED_SHOWN),
    ctx.store.warnings.targets(slug),
  ]);
  const targets = probed === null
    ? []
    : probeTargetsOf(probed, probed.probes).map((url): ProbeTarget => ({
      url,
      lastAnswer: probed.lastAnswers[url]?.answer ?? null,
      since: probed.lastAnswers[url]?.since ?? null,
    }));
  const e = await openEpisodeOf(ctx, stored, now);
  const earlyWarning = e !== null
    ? earlyWarningOf(e, await vendorWords(ctx, slug))
    : await accountWarning(ctx, who, slug);
  return { earlyWarning, trackRecord: ackRecordOf(episodes, now), backdated, targets };
}

/** Every service's open public early warning, by slug. */
export async function openWarnings(ctx: AppContext): Promise<Map<string, EarlyWarning>> {
  const out = new Map<string, EarlyWarning>();
  const now = ctx.clock.now();
  for (const w of await ctx.store.warnings.open()) {
    const e = await openEpisodeOf(ctx, w, now);
    if (e !== null) out.set(w.slug, earlyWarningOf(e, await vendorWords(ctx, w.slug)));
  }
  return out;
}

/** Every open public episode now (acknowledged as surfaces show it), by slug. */
export async function openEpisodes(ctx: AppContext): Promise<Map<string, WarningEpisode>> {
  const out = new Map<string, WarningEpisode>();
  const now = ctx.clock.now();
  for (const w of await ctx.store.warnings.open()) {
    const e = await openEpisodeOf(ctx, w, now);
    if (e !== null) out.set(w.slug, e);
  }
  return out;
}

/** Longest note of a report. */
export const REPORT_NOTE_MAX = 1000;
/** Reports kept per vendor: the last 90 days. */
const REPORTS_KEPT_MS = 90 * DAY_MS;

/** A report as a caller sends it. */
const NewReportSchema = z.object({
  service: z.string().trim().min(1).max(100).describe("The service's slug, e.g. github"),
  component: z.string().trim().min(1).max(255).nullish().describe(
    "The component that is not working for you, if you know it",
  ),
  note: z.string().max(REPORT_NOTE_MAX).default("").describe(
    `What you see, in a few words (at most ${REPORT_NOTE_MAX} characters)`,
  ),
}).strict();

/** A stored report as surfaces show it. */
export interface ReportView {
  readonly id: string;
  readonly service: string;
  readonly component: string | null;
  readonly note: string;
  readonly reporter: string;
  readonly createdAt: string;
}

function viewOf(r: ReportRecord): ReportView {
  return {
    id: r.id,
    service: r.slug,
    component: r.component,
    note: r.note,
    reporter: r.reporter,
    createdAt: toIso(r.at),
  };
}

/** One reporter (a person, a key, an app) reports one vendor at most once in this time. */
export const REPORT_REPEAT_MS = 10 * MINUTE_MS;
/** Reports one reporter may make in an hour. */
export const REPORTS_PER_REPORTER_HOUR = 10;
/** Reports one account may make in an hour, all its reporters together. */
export const REPORTS_PER_ACCOUNT_HOUR = 30;

/**
 * Refuses a report past the limits (429 with the wait): the same reporter and vendor again
 * within {@link REPORT_REPEAT_MS}, or past the hourly limits of the reporter and the account.
 */
async function checkReportLimits(
  ctx: AppContext,
  accountId: string,
  reporter: string,
  slug: string,
  now: EpochMs,
): Promise<void> {
  const lastHour = await ctx.store.warnings.reportsSince(accountId, now - HOUR_MS);
  const wait = (from: EpochMs, span: number) => Math.max(1, Math.ceil((from + span - now) / 1000));
  const again = lastHour.filter((r) => r.reporter === reporter && r.slug === slug)
    .find((r) => now - r.at < REPORT_REPEAT_MS);
  if (again) {
    throw new RateLimited(
      wait(again.at, REPORT_REPEAT_MS),
      `You reported ${slug} ${
        Math.max(1, Math.round((now - again.at) / MINUTE_MS))
      } min ago; a report counts for 30 minutes, so there is no need to send it again yet`,
    );
  }
  const mine = lastHour.filter((r) => r.reporter === reporter);
  if (mine.length >= REPORTS_PER_REPORTER_HOUR) {
    throw new RateLimited(
      wait(mine[mine.length - REPORTS_PER_REPORTER_HOUR]!.at, HOUR_MS),
      `At most ${REPORTS_PER_REPORTER_HOUR} reports an hour from one reporter`,
    );
  }
  if (lastHour.length >= REPORTS_PER_ACCOUNT_HOUR) {
    throw new RateLimited(
      wait(lastHour[lastHour.length - REPORTS_PER_ACCOUNT_HOUR]!.at, HOUR_MS),
      `At most ${REPORTS_PER_ACCOUNT_HOUR} reports an hour from one account`,
    );
  }
}

/** Reporting trouble: any member of the account; a key or token needs `monitors:write`. */
export const REPORT_TROUBLE: Access = {
  credential: "key",
  scopes: ["monitors:write"],
  role: { least: "MEMBER", refusal: "Only the account's members can report trouble" },
};

/** Who reported, as the count of distinct reporters sees them. */
function reporterOf(who: Caller): string {
  switch (who.kind) {
    case "session":
      return who.member.email;
    case "api_key":
      return `key ${who.keyId}`;
    case "oauth":
      return `app ${who.clientId}`;
    default:
      return "admin";
  }
}

/**
 * A member reports "not working for us". It warns the member's own account at once (for 30
 * minutes); it weighs in public only when the account had monitored the vendor for
 * `REPORTER_STANDING_MS`, and then as one account of the quorum (domain `stepWarning`). What the
 * member types stays with the account. Bad input is an InvalidRequest naming the field; an
 * unknown service is NotFound with suggestions; past the limits, RateLimited.
 */
export async function reportTrouble(
  ctx: AppContext,
  who: Caller,
  input: unknown,
): Promise<ReportView> {
  const account = callerAccount(who, REPORT_TROUBLE);
  const { service, component, note } = parse(NewReportSchema, input);
  await requireService(ctx, service);
  const at: EpochMs = ctx.clock.now();
  const reporter = reporterOf(who).slice(0, 320);
  await checkReportLimits(ctx, account.id, reporter, service, at);
  const record: ReportRecord = {
    id: crypto.randomUUID(),
    reporter,
    slug: service,
    component: component ?? null,
    note,
    at,
  };
  const stored = await ctx.store.warnings.addReport(
    { ...record, accountId: account.id, standingSince: at - REPORTER_STANDING_MS },
    at - REPORTS_KEPT_MS,
  );
  if (!stored) throw await serviceNotFound(ctx, service);
  return viewOf(record);
}

/** The caller's account's reports, newest first (the last 100). */
export async function listReports(ctx: AppContext, who: Caller): Promise<ReportView[]> {
  const account = callerAccount(who, READ_MONITORS);
  return (await ctx.store.warnings.reportsOf(account.id, 100)).map(viewOf);
}

export type { EarlyWarning, OwnEyes, ProbeTarget };
