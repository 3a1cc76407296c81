/**
 * What an alert about a vendor's change says: its trigger (a status, an incident opened,
 * updated or resolved, a maintenance) and its message — the monitor's label, the broken
 * components, the incident, the time to resolve quoted from enough history, and advice.
 * @module
 */
import {
  ALERT_COMPONENTS_SHOWN,
  type AlertMessage,
  type AlertTrigger,
  type Change,
  componentKey,
  formatMinutes,
  levelNoun,
  levelPhrase,
  maintenanceOverrun,
  MIN_RESOLUTION_SAMPLE,
  MINUTE_MS,
  type MonitorRecord,
  severity,
  type StatusLevel,
  webLinkOrNull,
} from "../domain/mod.ts";
import { alertsPage } from "./alert_outbox.ts";
import type { Round } from "./alert_round.ts";

export function incidentTrigger(change: Change & { kind: "incident" }): AlertTrigger {
  switch (change.status) {
    case "SCHEDULED":
      return "maintenance_scheduled";
    case "IN_PROGRESS":
      return "maintenance_started";
    case "COMPLETED":
      return "maintenance_completed";
    case "RESOLVED":
      return "incident_resolved";
    default:
      // A new incident comes with its first update; only later ones are updates.
      return change.opened || !change.latestUpdate ? "incident_opened" : "incident_updated";
  }
}

export async function messageFor(
  round: Round,
  rule: { readonly name: string },
  m: MonitorRecord,
  change: Change,
  notificationId: string,
  trigger: AlertTrigger,
  level: StatusLevel,
  previous: StatusLevel | null,
): Promise<AlertMessage> {
  const ctx = round.ctx;
  const service = await round.service(m.serviceSlug);
  const name = service?.name ?? m.serviceSlug;
  const watched = service?.components.filter((c) =>
    m.components.length === 0 ||
    m.components.some((w) => componentKey(w) === componentKey(c.name))
  ) ?? [];
  const broken = watched.filter((c) => c.status !== "OPERATIONAL").map((c) => ({
    name: c.name,
    level: c.status,
  })).sort((a, b) => (severity(b.level) ?? 0) - (severity(a.level) ?? 0));
  const incident = change.kind === "incident"
    ? {
      id: change.incidentId,
      title: change.title,
      status: change.status,
      impact: change.impact,
      latestUpdate: change.latestUpdate,
      url: webLinkOrNull(change.url),
      components: [...change.components ?? []],
    }
    : null;
  const impact = incident?.impact ??
    (level === "MAJOR_OUTAGE" ? "MAJOR" : level === "PARTIAL_OUTAGE" ? "MINOR" : null);
  const figure = impact && service
    ? service.timeToResolve.byImpact[impact as keyof typeof service.timeToResolve.byImpact]
    : undefined;
  const label = m.label ?? name;
  // A maintenance the vendor still calls under way although its announced end has passed. The
  // change names the vendor's id, reads give statusd's own: the open one of that title, if
  // only one has it.
  const sameTitle = change.kind === "incident"
    ? service?.incidents.filter((i) => i.title === change.title) ?? []
    : [];
  const overrun = sameTitle.length === 1 ? maintenanceOverrun(sameTitle[0]!, change.at) : null;
  const overran = overrun === null
    ? ""
    : `overran its announced end by ${formatMinutes(overrun.byMs / MINUTE_MS)}`;
  const what = trigger === "recovered"
    ? `${label} recovered: ${levelNoun(level)}`
    : incident
    ? `${label}: ${incident.title}${overran ? ` (${overran})` : ""}`
    : `${label} ${levelPhrase(level)}`;
  const closed = incident !== null &&
    (incident.status === "RESOLVED" || incident.status === "COMPLETED");
  return {
    notificationId,
    trigger,
    summary: what.slice(0, 300),
    level,
    previousLevel: previous,
    service: {
      slug: m.serviceSlug,
      name,
      vendorUrl: service?.statusPageUrl ?? `${ctx.settings.publicUrl}/services/${m.serviceSlug}`,
      statusdUrl: `${ctx.settings.publicUrl}/services/${m.serviceSlug}`,
    },
    components: broken.slice(0, ALERT_COMPONENTS_SHOWN),
    componentsTotal: broken.length,
    incident,
    // Quoted only from enough incidents of this impact; the sample size travels with it.
    timeToResolve: !closed && trigger !== "recovered" && figure &&
        figure.incidents >= MIN_RESOLUTION_SAMPLE && figure.p50Minutes !== null &&
        figure.p90Minutes !== null
      ? {
        impact: impact as "MINOR",
        p50Minutes: figure.p50Minutes,
        p90Minutes: figure.p90Minutes,
        sample: figure.incidents,
      }
      : null,
    advice: trigger === "recovered"
      ? "Nothing to do: what this rule watches is back under its threshold."
      : closed
      ? `${name} closed this ${incident!.status === "COMPLETED" ? "maintenance" : "incident"}.`
      : overran
      ? `This maintenance ${overran} and ${name} has not said it is done: check its status page.`
      : `Check ${name}'s status page for updates; statusd tells you when it recovers.`,
    links: { alerts: alertsPage(ctx) },
    sentBecause: rule.name,
    at: change.at,
  };
}
