/**
 * `store.warnings`: statusd's own eyes on a vendor. The probe schedule (a claimed round is the
 * lease: no other instance probes that vendor again before its next round), what each probe
 * target last answered, the early-warning memory, the finished episodes a grade is read from,
 * and members' "not working for us" reports.
 * @module
 */
import type {
  Acknowledgement,
  FinishedEpisode,
  RecentReports,
  WarningState,
} from "../early_warning.ts";
import type { GradedEpisode } from "../ack_grade.ts";
import type { EpochMs } from "../time.ts";
import type { EarlyWarningChange } from "../change.ts";
import type { TargetAnswer } from "../probe_targets.ts";

/** Which vendors are probed: those any account monitors, every vendor, or none. */
export type ProbeScope = "monitored" | "all" | "off";

/** A vendor whose probe round is due, claimed for this round. */
export interface ProbeDue {
  readonly vendorId: number;
  readonly slug: string;
  readonly domains: readonly string[];
  readonly statusPageUrl: string;
  /** The catalog's explicit probe URLs, or null (then its domains are probed). */
  readonly probes: readonly string[] | null;
  /** Target URL → when it last answered (epoch ms). */
  readonly answered: Readonly<Record<string, EpochMs>>;
  /** Target URL → its last answer and since when. */
  readonly lastAnswers: Readonly<Record<string, TargetAnswer>>;
  readonly state: WarningState;
}

/** What one probe round of one vendor leaves behind. */
export interface ProbeRecord {
  readonly answered: Readonly<Record<string, EpochMs>>;
  /** Each target's last answer (absent: kept as they were). */
  readonly lastAnswers?: Readonly<Record<string, TargetAnswer>>;
  readonly state: WarningState;
  /** Episodes whose delay became final (kept for the grade). */
  readonly finished: readonly FinishedEpisode[];
  /**
   * What moved, for the change feed (SSE, the response cache, other instances): stored in the
   * same act and told to subscribers after it commits.
   */
  readonly changes?: readonly EarlyWarningChange[];
}

/** A vendor's early warning as surfaces read it. */
export interface StoredWarning {
  readonly vendorId: number;
  readonly slug: string;
  readonly state: WarningState;
  readonly updatedAt: EpochMs;
}

/** A new report of a member. */
export interface NewReport {
  readonly id: string;
  readonly accountId: string;
  /** Who reported: a person's email or a key's name. */
  readonly reporter: string;
  readonly slug: string;
  readonly component: string | null;
  readonly note: string;
  readonly at: EpochMs;
  /**
   * The report weighs in public when its account has monitored the vendor since this time or
   * earlier (`REPORTER_STANDING_MS` before `at`); otherwise it warns its own account only.
   */
  readonly standingSince: EpochMs;
}

/** One account's reports of one vendor in a window, as that account's own warning reads them. */
export interface AccountReports {
  readonly accountId: string;
  readonly slug: string;
  /** Distinct reporters of the account (people, keys, apps). */
  readonly reporters: number;
  readonly firstAt: EpochMs;
  readonly lastAt: EpochMs;
  /** The component the account's latest report names, if any (the account's own words). */
  readonly component: string | null;
}

/** An incident whose start, as the vendor gives it, is earlier than statusd saw it listed. */
export interface BackdatedIncident {
  readonly title: string;
  /** The start the vendor gives. */
  readonly claimedStart: EpochMs;
  /** When statusd first saw it listed. */
  readonly firstListedAt: EpochMs;
  /** The vendor's previous successful reading then, which did not list it. */
  readonly priorReadAt: EpochMs;
}

/** A stored report. */
export interface ReportRecord {
  readonly id: string;
  readonly reporter: string;
  readonly slug: string;
  readonly component: string | null;
  readonly note: string;
  readonly at: EpochMs;
}

/** The warnings noun of the store. */
export interface WarningStore {
  /**
   * Claims up to `limit` vendors in the catalog whose probe round is due at `now` (in `scope`:
   * monitored by an unpaused monitor of any account or reported by a member in the last
   * `REPORT_WINDOW_MS` (30 min), or all), most overdue first, and moves
   * each one's next round to `now + intervalMs` in the same act: an instance sharing the
   * database that claims at the same time gets other vendors, never the same one.
   */
  claimDue(
    now: EpochMs,
    limit: number,
    scope: Exclude<ProbeScope, "off">,
    intervalMs: number,
  ): Promise<readonly ProbeDue[]>;
  /**
   * The reports of the vendor made at or after `since` that weigh in public: distinct accounts
   * of reports stored as counting, the first and last time; null when none.
   */
  recentReports(vendorId: number, since: EpochMs): Promise<RecentReports | null>;
  /**
   * Each account's reports of each vendor made at or after `since` (or only `only`'s), counting
   * or not: what warns the reporting account itself.
   */
  accountReports(
    since: EpochMs,
    only?: { readonly accountId: string; readonly slug: string },
  ): Promise<readonly AccountReports[]>;
  /** The account's reports made at or after `since`, oldest first (its rate limits read them). */
  reportsSince(
    accountId: string,
    since: EpochMs,
  ): Promise<readonly { readonly reporter: string; readonly slug: string; readonly at: EpochMs }[]>;
  /**
   * When statusd first saw the vendor admit trouble covering an episode whose evidence began at
   * `firstEvidenceAt`, by statusd's own readings, never the dates the vendor writes: the reading
   * that made the service-wide level other than operational (before the evidence: the vendor was
   * first; else the first such reading by `until`), or the first reading that listed an incident
   * (not maintenance) by `until` that statusd had not seen closed before the evidence began (a
   * resolved incident never acknowledges a later episode), with the start the vendor gives that
   * incident (null for a level). Null when it has not.
   */
  acknowledgedAt(
    vendorId: number,
    firstEvidenceAt: EpochMs,
    until: EpochMs,
  ): Promise<Acknowledgement | null>;
  /**
   * Stores one round: the targets' answers, the new state and its phase, and the finished
   * episodes (each vendor keeps the last {@link EPISODES_KEPT_PER_VENDOR}; older than the
   * grade's window go).
   */
  record(vendorId: number, record: ProbeRecord, now: EpochMs): Promise<void>;
  /** Every vendor's warning with an open episode (suspected or acknowledged), by slug. */
  open(): Promise<readonly StoredWarning[]>;
  /** One vendor's warning memory, null when never probed or reported. */
  of(slug: string): Promise<StoredWarning | null>;
  /** The finished episodes of the vendor whose first evidence is at or after `since`. */
  episodes(slug: string, since: EpochMs): Promise<readonly GradedEpisode[]>;
  /**
   * Stores a report; false when there is no such vendor. The vendor's reports older than
   * `before`, and the account's beyond its newest {@link REPORTS_KEPT_PER_ACCOUNT}, are deleted
   * in the same act.
   */
  addReport(report: NewReport, before: EpochMs): Promise<boolean>;
  /**
   * The vendor's incidents (not maintenance) first listed at or after `since` that give a start
   * earlier than the vendor's previous successful reading before them (back-dated: a reading in
   * between showed no such incident), newest first, at most `limit`, and how many there are.
   */
  backdated(
    slug: string,
    since: EpochMs,
    limit: number,
  ): Promise<{ readonly total: number; readonly latest: readonly BackdatedIncident[] }>;
  /**
   * What statusd probes of the vendor, as its catalog entry says (domains, status page, explicit
   * probes), and each target's last answer; null when there is no such vendor.
   */
  targets(slug: string): Promise<
    {
      readonly domains: readonly string[];
      readonly statusPageUrl: string;
      readonly probes: readonly string[] | null;
      readonly lastAnswers: Readonly<Record<string, TargetAnswer>>;
    } | null
  >;
  /** The account's reports, newest first, at most `limit`. */
  reportsOf(accountId: string, limit: number): Promise<readonly ReportRecord[]>;
}

/** Reports an account keeps at most (the newest): one account cannot grow the table without end. */
export const REPORTS_KEPT_PER_ACCOUNT = 500;

/** Finished episodes kept per vendor (far more than 90 days of a flapping vendor need). */
export const EPISODES_KEPT_PER_VENDOR = 500;
