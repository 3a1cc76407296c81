/**
 * What the app's verbs answer, as every surface shows it: a monitor, a group, a board, an alert
 * event, a service's history and uptime, statusd's own eyes on a vendor. The app computes them;
 * `wire/` renders them for REST, MCP and the CLI, so a field is added once.
 * @module
 */
import type { AckRecord } from "./ack_grade.ts";
import type { AlertMessage, DeliveryAttempt, DeliveryState } from "./alert.ts";
import type { Evidence, WarningPhase } from "./early_warning.ts";
import type { Incident } from "./incident.ts";
import type { Logo } from "./logo.ts";
import type { MonitorState } from "./monitor.ts";
import type { ProbeVerdict } from "./probe_targets.ts";
import type { Reading } from "./reading.ts";
import type { StatusLevel } from "./status.ts";
import type { Platform } from "./service.ts";
import type { EpochMs } from "./time.ts";
import type { DayWorst } from "./uptime.ts";
import type { BoardItem, BoardLink, BoardRecord, GroupRecord } from "./store/boards.ts";
import type { DeliveryRecord } from "./store/deliveries.ts";
import type { MonitorRecord } from "./store/monitors.ts";
import type { BackdatedIncident } from "./store/warnings.ts";

/** A monitor as every surface shows it: what it watches, and what that reads now. */
export interface MonitorView extends MonitorRecord {
  /** Name of the watched service (null when it left the catalog). */
  readonly serviceName: string | null;
  readonly currentStatus: StatusLevel;
  /** Percent over 30 days (`MONITOR_UPTIME_DAYS`) of the watched selection, or null. */
  readonly uptime30d: number | null;
  /** How much of those days was observed (ms): `uptimeSpanWords` says it in words. */
  readonly uptimeObservedMs: number;
  readonly state: MonitorState;
  readonly missingComponents: readonly string[];
  /** Open incidents of the service that touch the selection (all when none is chosen). */
  readonly openIncidents: readonly Incident[];
  readonly lastCheckedAt: EpochMs | null;
  /** Reading health of the vendor (null when the service left the catalog). */
  readonly reading: Reading | null;
  /** Worst level per UTC day of what is watched over the last 90 days, oldest first. */
  readonly history: readonly DayWorst[];
}

/** A delivered alert event as shown. */
export interface DeliveryView {
  readonly id: string;
  readonly routeId: string;
  readonly source: DeliveryRecord["source"];
  readonly changeId: number | null;
  readonly notificationId: string;
  readonly step: number;
  readonly recovery: boolean;
  readonly trigger: AlertMessage["trigger"];
  readonly summary: string;
  readonly state: DeliveryState;
  readonly attempts: readonly DeliveryAttempt[];
  readonly lastError: string | null;
  readonly notBefore: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** Worst status per UTC day for one service. */
export interface ServiceHistory {
  readonly slug: string;
  readonly days: number;
  /** Oldest first; the last entry is today (so far). */
  readonly entries: DayWorst[];
}

/** Uptime percentages over the last 7, 30 and 90 days, and MTTR over 90 days. */
export interface ServiceUptime {
  readonly slug: string;
  /** Percent (3 decimals) or null when nothing was observed in the window. */
  readonly days7: number | null;
  readonly days30: number | null;
  readonly days90: number | null;
  /** Mean minutes to recovery of disruptions that ended in the last 90 days (1 decimal). */
  readonly mttrMinutes: number | null;
  /** Disruptions that ended in the last 90 days (the MTTR sample size). */
  readonly disruptions: number;
  /** The instant the figures were computed for (window end). */
  readonly asOf: EpochMs;
  /**
   * First instant of the 90-day window with a known status, or null when none: uptime covers
   * only time observed, so a service first read 3 days ago has 3 days behind its figures.
   */
  readonly observedSince: EpochMs | null;
  /** Share (percent, 1 decimal) of each window with a known status. */
  readonly observedPercent: {
    readonly days7: number;
    readonly days30: number;
    readonly days90: number;
  };
  /**
   * "not enough data yet (4 min observed)" while less than a day was observed (the percentages
   * are then null); null once there is.
   */
  readonly note: string | null;
}

/** An early warning as every surface shows it. */
export interface EarlyWarning {
  readonly phase: WarningPhase;
  /** statusd's first evidence. */
  readonly since: string;
  readonly suspectedAt: string;
  /** When statusd first saw the vendor admit trouble; null while it has not. */
  readonly acknowledgedAt: string | null;
  /**
   * The start the vendor itself gives the incident that admitted it (null: admitted by its
   * level, or not yet): kept beside statusd's own time, never taken for it.
   */
  readonly vendorClaimedStart: string | null;
  /** Minutes from the first evidence to the vendor's acknowledgement (0: the vendor was first). */
  readonly delayMinutes: number | null;
  readonly evidence: Evidence;
  /** The latest failing probe round: how many of how many targets failed, and their hosts. */
  readonly probes: { readonly failed: number; readonly total: number; readonly hosts: string[] };
  /**
   * Public: independent accounts whose reports counted. Account: the caller's account's members
   * (people, keys, apps) who reported in the last 30 minutes.
   */
  readonly reporters: number;
  /** The component the caller's account named in its latest report (account warnings only). */
  readonly component: string | null;
  /** In words: "statusd's own checks have seen errors from … since …; Acme has not …". */
  readonly summary: string;
  /**
   * `public`: what anyone sees (statusd's probes, or reports of several long-standing accounts);
   * `account`: only the caller's account's own reports, which no one else sees.
   */
  readonly visibility: "public" | "account";
  /** Always true: this is statusd's own observation, not the vendor's. */
  readonly ownObservation: true;
}

/** What statusd saw itself of one service: its open warning and its honesty record. */
export interface OwnEyes {
  readonly earlyWarning: EarlyWarning | null;
  readonly trackRecord: AckRecord;
  /**
   * Its incidents of the grade's window whose start, as the vendor gives it, is earlier than
   * statusd's reading before it first listed them: how many, and the latest few.
   */
  readonly backdated: {
    readonly total: number;
    readonly latest: readonly BackdatedIncident[];
  };
  /**
   * What statusd probes of the vendor (the catalog's probe URLs, else its domains' sites) and
   * each target's last answer, since when; null before it was first probed.
   */
  readonly targets: readonly ProbeTarget[];
}

/** One target statusd probes, and what it last answered. */
export interface ProbeTarget {
  readonly url: string;
  /** `up` (answered below 500), `down`, `refused` (an address statusd may not reach), or null. */
  readonly lastAnswer: ProbeVerdict | null;
  readonly since: EpochMs | null;
}

/** A group with its monitors (those still existing, in the group's order) and its level. */
export interface GroupView extends GroupRecord {
  readonly currentStatus: StatusLevel;
  readonly monitors: readonly MonitorView[];
}

/** One entry of a board as read: a group or a monitor, with its level and daily history. */
export interface BoardEntry {
  readonly kind: BoardItem["kind"];
  readonly id: string;
  readonly name: string;
  readonly currentStatus: StatusLevel;
  readonly history: readonly DayWorst[];
  readonly openIncidents: readonly Incident[];
  /** For a group: its monitors. */
  readonly monitors: readonly MonitorView[];
  /** For a monitor: itself (its uptime and reading); null for a group. */
  readonly monitor: MonitorView | null;
  /** Slugs of the services the entry watches. */
  readonly services: readonly string[];
}

/** A board with its entries (existing ones, in order) and its overall level. */
export interface BoardView extends BoardRecord {
  readonly description: string | null;
  readonly accentColor: string | null;
  readonly links: readonly BoardLink[];
  readonly host: string | null;
  readonly logo: Logo | null;
  readonly earlyWarning: boolean;
  readonly currentStatus: StatusLevel;
  readonly entries: readonly BoardEntry[];
}

/** A status page an account added by URL, as adding it answers (app/added_vendors.ts). */
export interface AddedVendorView {
  readonly slug: string;
  readonly name: string;
  readonly statusPageUrl: string;
  readonly platform: Platform;
  readonly currentStatus: StatusLevel;
  /** Component names the first reading found (what a monitor may narrow to). */
  readonly components: readonly string[];
  /** When the account added it; null for a vendor everyone sees listed (nothing was added). */
  readonly addedAt: EpochMs | null;
  /** `catalog`: everyone sees it listed (in the catalog, or promoted); `account`: the account's. */
  readonly listed: "catalog" | "account";
}

/** One vendor a target belongs to. */
export interface LookupMatch {
  readonly slug: string;
  readonly name: string;
  /** Why: which host of the target is the vendor's, and how. */
  readonly why: string;
  /** The vendor's component the host names (a region, a service), when it names one. */
  readonly component: string | null;
  readonly currentStatus: StatusLevel;
  readonly openIncidents: readonly Pick<Incident, "title" | "status" | "impact" | "url">[];
}
