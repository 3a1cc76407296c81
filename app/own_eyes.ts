/**
 * What statusd saw of a vendor with its own eyes (probes and members' reports), apart from what
 * the vendor says: the early warning open now, the vendor's acknowledgement record and grade,
 * and the verb members report trouble with. Shared by REST, MCP, the web pages and the CLI.
 * @module
 */
import { z } from "zod";
import {
  type AckRecord,
  ackRecordOf,
  DAY_MS,
  delayOf,
  type EpochMs,
  type Evidence,
  GRADE_WINDOW_DAYS,
  type ReportRecord,
  toIso,
  type WarningEpisode,
  type WarningPhase,
  warningWords,
} from "../domain/mod.ts";
import { requireService, serviceNotFound } from "./catalog.ts";
import type { AppContext } from "./context.ts";
import { parse, READ_MONITORS } from "./monitors.ts";
import { type Access, type Caller, callerAccount } from "./policy.ts";

/** An early warning as every surface shows it. */
export interface EarlyWarning {
  readonly phase: WarningPhase;
  /** statusd's first evidence. */
  readonly since: string;
  readonly suspectedAt: string;
  /** When the vendor admitted trouble; null while it has not. */
  readonly acknowledgedAt: string | null;
  /** Minutes from the first evidence to the vendor's acknowledgement (0: the vendor was first). */
  readonly delayMinutes: number | null;
  readonly evidence: Evidence;
  /** The latest failing probe round: how many of how many targets failed, and their hosts. */
  readonly probes: { readonly failed: number; readonly total: number; readonly hosts: string[] };
  /** Members who reported trouble in the last 30 minutes. */
  readonly reporters: number;
  /** The component a report named, if any. */
  readonly component: string | null;
  /** In words: "statusd's own checks have seen errors from … since …; the vendor has not acknowledged." */
  readonly summary: string;
  /** Always true: this is statusd's own observation, not the vendor's. */
  readonly ownObservation: true;
}

/** The early warning of `episode` (open), in the shape surfaces show. */
export function earlyWarningOf(episode: WarningEpisode): EarlyWarning {
  const delay = delayOf(episode);
  return {
    phase: episode.acknowledgedAt === null ? "suspected" : "acknowledged",
    since: toIso(episode.firstEvidenceAt),
    suspectedAt: toIso(episode.suspectedAt),
    acknowledgedAt: episode.acknowledgedAt === null ? null : toIso(episode.acknowledgedAt),
    delayMinutes: delay === null ? null : Math.round(delay / 60_000),
    evidence: episode.evidence,
    probes: { failed: episode.failed, total: episode.total, hosts: [...episode.hosts] },
    reporters: episode.reporters,
    component: episode.component,
    summary: warningWords(episode),
    ownObservation: true,
  };
}

/** What statusd saw itself of one service: its open warning and its acknowledgement record. */
export interface OwnEyes {
  readonly earlyWarning: EarlyWarning | null;
  readonly trackRecord: AckRecord;
}

/**
 * One service's {@link OwnEyes}. It does not look the service up: its callers read the service
 * itself (and answer NotFound for an unknown slug); a slug statusd never saw reads as nothing.
 */
export async function ownEyesOf(ctx: AppContext, slug: string): Promise<OwnEyes> {
  const now = ctx.clock.now();
  const [warning, episodes] = await Promise.all([
    ctx.store.warnings.of(slug),
    ctx.store.warnings.episodes(slug, now - GRADE_WINDOW_DAYS * DAY_MS),
  ]);
  const e = warning?.state.episode ?? null;
  return {
    earlyWarning: e !== null && e.clearedAt === null ? earlyWarningOf(e) : null,
    trackRecord: ackRecordOf(episodes, now),
  };
}

/** Every service with an open early warning, by slug. */
export async function openWarnings(ctx: AppContext): Promise<Map<string, EarlyWarning>> {
  const open = await ctx.store.warnings.open();
  const out = new Map<string, EarlyWarning>();
  for (const w of open) {
    const e = w.state.episode;
    if (e !== null && e.clearedAt === null) out.set(w.slug, earlyWarningOf(e));
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
 * A member reports "not working for us": kept for the vendor's early warning (two members in
 * 30 minutes, or one while statusd's probes see errors, make a suspicion). Bad input is an
 * InvalidRequest naming the field; an unknown service is NotFound with suggestions.
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
  const record: ReportRecord = {
    id: crypto.randomUUID(),
    reporter: reporterOf(who).slice(0, 320),
    slug: service,
    component: component ?? null,
    note,
    at,
  };
  const stored = await ctx.store.warnings.addReport(
    { ...record, accountId: account.id },
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
