/**
 * A store shaped like a day in the life of statusd, for the page tests: a service with known
 * transitions, components and incidents (`acme`, whose 90-day bar, component bars and time to
 * resolve have known answers), one in a major outage, one that recovered two hours ago, one
 * with maintenance tomorrow, and enough others to fill two catalog pages. All at the rigs' T0
 * (2026-11-20T12:00Z).
 * @module
 */
import {
  type ComponentSnapshot,
  DAY_MS,
  type EpochMs,
  HOUR_MS,
  type IncidentSnapshot,
  MINUTE_MS,
  type StatusLevel,
  type Store,
} from "../../domain/mod.ts";
import { addIncident, addTransitions, addVendor, setStatus, T0 } from "./api.ts";
import { recordReading, syncVendors, vendorId, vendorOf } from "./seed.ts";

/** `2026-11-DD` at `hour`:`minute` UTC. */
export function nov(day: number, hour = 0, minute = 0): EpochMs {
  return Date.UTC(2026, 10, day, hour, minute);
}

/** Reads the vendor's page again at `at` (a minute before T0 by default): its reading is fresh. */
export async function markRead(
  store: Store,
  slug: string,
  at: EpochMs = T0 - MINUTE_MS,
): Promise<void> {
  const row = (await store.catalog.service(slug))!;
  await setStatus(store, slug, row.currentStatus, at);
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

/** The incidents on acme's page: four resolved in the window, one older, one open. */
function acmeIncidents(): IncidentSnapshot[] {
  const resolved = (
    externalId: string,
    title: string,
    impact: "MAJOR" | "MINOR",
    start: EpochMs,
    minutes: number,
    components: string[] = [],
  ): IncidentSnapshot => ({
    externalId,
    title,
    status: "RESOLVED",
    impact,
    startedAt: start,
    updatedAt: start + minutes * MINUTE_MS,
    resolvedAt: start + minutes * MINUTE_MS,
    url: `https://example.test/incidents/${externalId}`,
    componentIds: components,
    updates: [
      { at: start, status: "INVESTIGATING", body: `We are looking into: ${title}.` },
      { at: start + minutes * MINUTE_MS, status: "RESOLVED", body: "This is resolved." },
    ],
  });
  return [
    resolved("inc-api", "Elevated API errors", "MAJOR", nov(17, 10), 38, ["api"]),
    resolved("inc-hooks", "Webhooks delayed", "MAJOR", nov(16, 8), 130),
    resolved("inc-dash", "Slow dashboard", "MINOR", nov(19), 180, ["dash"]),
    resolved("inc-old", "Old outage", "MAJOR", T0 - 100 * DAY_MS, 10),
    {
      externalId: "mnt-db",
      title: "Database maintenance",
      status: "COMPLETED",
      impact: "MAINTENANCE",
      startedAt: nov(16, 1),
      updatedAt: nov(16, 1),
      resolvedAt: nov(16, 2),
      url: "https://example.test/incidents/mnt-db",
      componentIds: [],
      updates: [{ at: nov(16, 1), status: "IN_PROGRESS", body: "Maintenance under way." }],
    },
    {
      externalId: "inc-open",
      title: "Login emails delayed",
      status: "IDENTIFIED",
      impact: "MINOR",
      startedAt: T0 - HOUR_MS,
      updatedAt: T0 - 30 * MINUTE_MS,
      resolvedAt: null,
      url: "https://example.test/incidents/inc-open",
      componentIds: [],
      updates: [
        { at: T0 - HOUR_MS, status: "INVESTIGATING", body: "Some login emails arrive late." },
        { at: T0 - 30 * MINUTE_MS, status: "IDENTIFIED", body: "A mail queue is backed up." },
      ],
    },
  ];
}

/**
 * Adds `acme` with the history {@link ACME} describes, read by the store's port as the poller
 * would have: its page read at each change, unreadable (stale) through 18 November, and read a
 * minute ago with its incidents.
 */
export async function addAcme(store: Store): Promise<void> {
  await syncVendors(store, [vendorOf({ slug: "acme", name: "Acme Cloud", category: "cloud" })], T0);
  const id = await vendorId(store, "acme");
  const page = (api: StatusLevel, dash: StatusLevel): ComponentSnapshot[] => [
    { externalId: "api", name: "API", group: null, status: api },
    { externalId: "dash", name: "Dashboard", group: "Web", status: dash },
  ];
  const read = (indicator: StatusLevel, api: StatusLevel, dash: StatusLevel, at: EpochMs) =>
    recordReading(store, "acme", { indicator, components: page(api, dash), incidents: [] }, at);
  await read("OPERATIONAL", "OPERATIONAL", "OPERATIONAL", nov(15, 6));
  await read("OPERATIONAL", "PARTIAL_OUTAGE", "OPERATIONAL", nov(17, 10));
  await read("OPERATIONAL", "OPERATIONAL", "OPERATIONAL", nov(17, 11));
  // No answer for too long: the service reads UNKNOWN (its components keep their last level).
  await store.polls.recordFailure(id, {
    at: nov(18),
    latencyMs: 10_000,
    httpStatus: null,
    nextPollAt: nov(18, 1),
    deadlineAt: nov(18, 1),
    outcome: "timeout",
    detail: "no answer",
    stale: true,
    platformMiss: false,
  });
  await read("DEGRADED_PERFORMANCE", "OPERATIONAL", "DEGRADED_PERFORMANCE", nov(19));
  await read("OPERATIONAL", "OPERATIONAL", "OPERATIONAL", nov(19, 3));
  await recordReading(store, "acme", {
    indicator: "OPERATIONAL",
    components: page("OPERATIONAL", "OPERATIONAL"),
    incidents: acmeIncidents(),
  }, T0 - MINUTE_MS);
}

/** The whole day: acme, an outage, a recovery, a maintenance, and `fillers` calm vendors. */
export async function fillPagesStore(store: Store, fillers = 60): Promise<void> {
  await addAcme(store);
  await addVendor(store, { slug: "stripe", name: "Stripe", category: "payments" });
  await addTransitions(store, "stripe", [
    [T0 - 10 * DAY_MS, "OPERATIONAL"],
    [T0 - 20 * MINUTE_MS, "MAJOR_OUTAGE"],
  ]);
  await addIncident(store, "stripe", {
    externalId: "stripe-1",
    title: "Payments failing in EU",
    status: "INVESTIGATING",
    impact: "CRITICAL",
    startedAt: T0 - 20 * MINUTE_MS,
    updates: [{ at: T0 - 20 * MINUTE_MS, status: "INVESTIGATING", body: "Card payments fail." }],
  }, T0 - MINUTE_MS);
  await addVendor(store, {
    slug: "aws",
    name: "Amazon Web Services",
    category: "cloud",
    provider: "amazon",
  });
  await addTransitions(store, "aws", [
    [T0 - 10 * DAY_MS, "OPERATIONAL"],
    [T0 - 3 * HOUR_MS - 10 * MINUTE_MS, "PARTIAL_OUTAGE"],
    [T0 - 2 * HOUR_MS, "OPERATIONAL"],
  ]);
  await markRead(store, "aws");
  await addVendor(store, { slug: "slack", name: "Slack", category: "communication" });
  await addTransitions(store, "slack", [[T0 - 10 * DAY_MS, "OPERATIONAL"]]);
  await addIncident(store, "slack", {
    externalId: "slack-m1",
    title: "Scheduled database upgrade",
    status: "SCHEDULED",
    impact: "MAINTENANCE",
    startedAt: T0 - DAY_MS,
    scheduledStartAt: T0 + DAY_MS,
    scheduledEndAt: T0 + DAY_MS + 2 * HOUR_MS,
  }, T0 - MINUTE_MS);
  for (let k = 1; k <= fillers; k++) {
    const n = String(k).padStart(2, "0");
    await addVendor(store, { slug: `vendor-${n}`, name: `Vendor ${n}`, provider: "fillers" });
    await addTransitions(store, `vendor-${n}`, [[T0 - 40 * DAY_MS, "OPERATIONAL"]]);
    await markRead(store, `vendor-${n}`);
  }
}
