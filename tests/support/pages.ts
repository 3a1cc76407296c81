/**
 * A store shaped like a day in the life of statusd, for the page tests: a service with known
 * transitions, components and incidents (`acme`, whose 90-day bar, component bars and time to
 * resolve have known answers), one in a major outage, one that recovered two hours ago, one
 * with maintenance tomorrow, and enough others to fill two catalog pages. All at the rigs' T0
 * (2026-11-20T12:00Z).
 * @module
 */
import { DAY_MS, type EpochMs, HOUR_MS, MINUTE_MS, type StatusLevel } from "../../domain/mod.ts";
import type { Db } from "../../store/mod.ts";
import { addComponent, addIncident, addTransitions, addVendor, T0 } from "./api.ts";

/** `2026-11-DD` at `hour`:`minute` UTC. */
export function nov(day: number, hour = 0, minute = 0): EpochMs {
  return Date.UTC(2026, 10, day, hour, minute);
}

/** Component-level transitions `[at, to]`, each starting from the previous level. */
export function addComponentTransitions(
  db: Db,
  vendorId: number,
  componentId: number,
  steps: [EpochMs, StatusLevel][],
  first: StatusLevel = "UNKNOWN",
): void {
  let from = first;
  const insert = db.prepare(
    "INSERT INTO transitions (vendor_id, component_id, from_status, to_status, at) VALUES (?, ?, ?, ?, ?)",
  );
  for (const [at, to] of steps) {
    insert.run(vendorId, componentId, from, to, at);
    from = to;
  }
}

/** Marks a vendor as read successfully at `at` (its reading is fresh). */
export function markRead(db: Db, vendorId: number, at: EpochMs = T0 - MINUTE_MS): void {
  db.prepare("UPDATE vendors SET last_checked_at = ?, last_success_at = ? WHERE id = ?")
    .run(at, at, vendorId);
}

/** What `acme`'s page must show (the known answers). */
export const ACME = {
  /** Worst level per day for the last days of the 90, by UTC date. */
  days: {
    "2026-11-14": "UNKNOWN",
    "2026-11-15": "OPERATIONAL",
    "2026-11-16": "OPERATIONAL",
    "2026-11-17": "PARTIAL_OUTAGE",
    "2026-11-18": "UNKNOWN",
    "2026-11-19": "DEGRADED_PERFORMANCE",
    "2026-11-20": "OPERATIONAL",
  } as Record<string, StatusLevel>,
  /** Per component: the same days. The service's UNKNOWN day is UNKNOWN for each component. */
  components: {
    API: {
      "2026-11-14": "UNKNOWN",
      "2026-11-15": "OPERATIONAL",
      "2026-11-17": "PARTIAL_OUTAGE",
      "2026-11-18": "UNKNOWN",
      "2026-11-19": "OPERATIONAL",
    },
    Dashboard: {
      "2026-11-14": "UNKNOWN",
      "2026-11-17": "OPERATIONAL",
      "2026-11-18": "UNKNOWN",
      "2026-11-19": "DEGRADED_PERFORMANCE",
      "2026-11-20": "OPERATIONAL",
    },
  } as Record<string, Record<string, StatusLevel>>,
  /** Resolved incidents of the last 90 days, newest first. */
  past: ["Slow dashboard", "Elevated API errors", "Webhooks delayed", "Database maintenance"],
  /** p50/p90 minutes: MAJOR 38 and 130 min; MINOR 180; all three: 130 and 180. */
  timeToResolve: {
    MAJOR: { incidents: 2, p50Minutes: 38, p90Minutes: 130 },
    MINOR: { incidents: 1, p50Minutes: 180, p90Minutes: 180 },
    all: { incidents: 3, p50Minutes: 130, p90Minutes: 180 },
  },
} as const;

/** Adds `acme` with the history {@link ACME} describes; returns its vendor id. */
export function addAcme(db: Db): number {
  const id = addVendor(db, { slug: "acme", name: "Acme Cloud", category: "cloud" });
  markRead(db, id);
  addTransitions(db, id, [
    [nov(15, 6), "OPERATIONAL"],
    [nov(17, 10), "PARTIAL_OUTAGE"],
    [nov(17, 11), "OPERATIONAL"],
    [nov(18), "UNKNOWN"],
    [nov(19), "DEGRADED_PERFORMANCE"],
    [nov(19, 3), "OPERATIONAL"],
  ]);
  const api = addComponent(db, id, { externalId: "api", name: "API", status: "OPERATIONAL" });
  addComponentTransitions(db, id, api, [
    [nov(15, 6), "OPERATIONAL"],
    [nov(17, 10), "PARTIAL_OUTAGE"],
    [nov(17, 11), "OPERATIONAL"],
  ]);
  const dash = addComponent(db, id, {
    externalId: "dash",
    name: "Dashboard",
    status: "OPERATIONAL",
    group: "Web",
  });
  addComponentTransitions(db, id, dash, [
    [nov(15, 6), "OPERATIONAL"],
    [nov(19), "DEGRADED_PERFORMANCE"],
    [nov(19, 3), "OPERATIONAL"],
  ]);
  const resolved = (
    externalId: string,
    title: string,
    impact: "MAJOR" | "MINOR",
    start: EpochMs,
    minutes: number,
    components: string[] = [],
  ) =>
    addIncident(db, id, {
      externalId,
      title,
      status: "RESOLVED",
      impact,
      startedAt: start,
      updatedAt: start + minutes * MINUTE_MS,
      resolvedAt: start + minutes * MINUTE_MS,
      componentIds: components,
      updates: [
        { at: start, status: "INVESTIGATING", body: `We are looking into: ${title}.` },
        { at: start + minutes * MINUTE_MS, status: "RESOLVED", body: "This is resolved." },
      ],
    });
  resolved("inc-api", "Elevated API errors", "MAJOR", nov(17, 10), 38, ["api"]);
  resolved("inc-hooks", "Webhooks delayed", "MAJOR", nov(16, 8), 130);
  resolved("inc-dash", "Slow dashboard", "MINOR", nov(19), 180, ["dash"]);
  resolved("inc-old", "Old outage", "MAJOR", T0 - 100 * DAY_MS, 10);
  addIncident(db, id, {
    externalId: "mnt-db",
    title: "Database maintenance",
    status: "COMPLETED",
    impact: "MAINTENANCE",
    startedAt: nov(16, 1),
    resolvedAt: nov(16, 2),
    updates: [{ at: nov(16, 1), status: "IN_PROGRESS", body: "Maintenance under way." }],
  });
  addIncident(db, id, {
    externalId: "inc-open",
    title: "Login emails delayed",
    status: "IDENTIFIED",
    impact: "MINOR",
    startedAt: T0 - HOUR_MS,
    updatedAt: T0 - 30 * MINUTE_MS,
    updates: [
      { at: T0 - HOUR_MS, status: "INVESTIGATING", body: "Some login emails arrive late." },
      { at: T0 - 30 * MINUTE_MS, status: "IDENTIFIED", body: "A mail queue is backed up." },
    ],
  });
  return id;
}

/** The whole day: acme, an outage, a recovery, a maintenance, and `fillers` calm vendors. */
export function fillPagesStore(db: Db, fillers = 60): void {
  addAcme(db);
  const down = addVendor(db, {
    slug: "stripe",
    name: "Stripe",
    category: "payments",
    status: "MAJOR_OUTAGE",
    lastChangedAt: T0 - 20 * MINUTE_MS,
  });
  markRead(db, down);
  addTransitions(db, down, [[T0 - 10 * DAY_MS, "OPERATIONAL"], [
    T0 - 20 * MINUTE_MS,
    "MAJOR_OUTAGE",
  ]]);
  addIncident(db, down, {
    externalId: "stripe-1",
    title: "Payments failing in EU",
    status: "INVESTIGATING",
    impact: "CRITICAL",
    startedAt: T0 - 20 * MINUTE_MS,
    updates: [{ at: T0 - 20 * MINUTE_MS, status: "INVESTIGATING", body: "Card payments fail." }],
  });
  const back = addVendor(db, {
    slug: "aws",
    name: "Amazon Web Services",
    category: "cloud",
    provider: "amazon",
    lastChangedAt: T0 - 2 * HOUR_MS,
  });
  markRead(db, back);
  addTransitions(db, back, [
    [T0 - 10 * DAY_MS, "OPERATIONAL"],
    [T0 - 3 * HOUR_MS - 10 * MINUTE_MS, "PARTIAL_OUTAGE"],
    [T0 - 2 * HOUR_MS, "OPERATIONAL"],
  ]);
  const planned = addVendor(db, { slug: "slack", name: "Slack", category: "communication" });
  markRead(db, planned);
  addTransitions(db, planned, [[T0 - 10 * DAY_MS, "OPERATIONAL"]]);
  const m = addIncident(db, planned, {
    externalId: "slack-m1",
    title: "Scheduled database upgrade",
    status: "SCHEDULED",
    impact: "MAINTENANCE",
    startedAt: T0 - DAY_MS,
  });
  db.prepare("UPDATE incidents SET scheduled_start_at = ?, scheduled_end_at = ? WHERE id = ?")
    .run(T0 + DAY_MS, T0 + DAY_MS + 2 * HOUR_MS, m);
  for (let k = 1; k <= fillers; k++) {
    const n = String(k).padStart(2, "0");
    const v = addVendor(db, { slug: `vendor-${n}`, name: `Vendor ${n}`, provider: "fillers" });
    markRead(db, v);
    addTransitions(db, v, [[T0 - 40 * DAY_MS, "OPERATIONAL"]]);
  }
}
