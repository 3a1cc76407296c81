/**
 * The words every channel shares: what happened, what is affected, what to expect
 * and what to do, as plain lines each channel then formats. Vendor text is hostile: it is cut
 * here and escaped by each channel for its own markup.
 * @module
 */
import type { AlertMessage, StatusLevel } from "../../domain/mod.ts";
import { counted, formatMinutes, levelNoun } from "../../domain/mod.ts";

/** `text` cut to `max` characters (an ellipsis marks the cut). */
export function cut(text: string, max: number): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length <= max ? t : `${t.slice(0, Math.max(0, max - 1))}…`;
}

/** A level as people read it: "major outage", "no data". */
export function levelWords(level: StatusLevel): string {
  return levelNoun(level);
}

/** "GitHub major incidents usually resolve in 38 min, p90 2 h 10 min (12 incidents)", or null. */
export function expectation(m: AlertMessage): string | null {
  const t = m.timeToResolve;
  if (!t || !m.service) return null;
  return `${m.service.name} ${t.impact.toLowerCase()} incidents usually resolve in ${
    formatMinutes(t.p50Minutes)
  }, p90 ${formatMinutes(t.p90Minutes)} (${counted(t.sample, "incident")})`;
}

/** The facts of a message, one per line, without markup (the title is `m.summary`). */
export function factLines(m: AlertMessage): string[] {
  const out: string[] = [];
  if (m.service) {
    out.push(
      `${m.service.name}: ${levelWords(m.level)}` +
        (m.previousLevel ? ` (was ${levelWords(m.previousLevel)})` : ""),
    );
  }
  if (m.components.length) {
    const shown = m.components.slice(0, 10).map((c) =>
      `${cut(c.name, 100)} (${levelWords(c.level)})`
    );
    // The rest counted from the total, not from the (capped) list.
    const total = Math.max(m.componentsTotal, m.components.length);
    const more = total > shown.length ? `, and ${total - shown.length} more` : "";
    out.push(`Components (${total}): ${shown.join(", ")}${more}`);
  }
  if (m.incident) {
    out.push(
      `Incident: ${cut(m.incident.title, 200)} — ${
        m.incident.status.toLowerCase().replace(/_/g, " ")
      }, ${m.incident.impact.toLowerCase()} impact`,
    );
    const named = m.incident.components;
    if (named !== undefined) {
      out.push(
        named.length
          ? `Affects: ${named.slice(0, 10).map((c) => cut(c, 100)).join(", ")}${
            named.length > 10 ? `, and ${named.length - 10} more` : ""
          }`
          : `${m.service?.name ?? "The vendor"} did not name the components it affects`,
      );
    }
    if (m.incident.latestUpdate) out.push(`Latest update: ${cut(m.incident.latestUpdate, 600)}`);
  }
  const expect = expectation(m);
  if (expect) out.push(expect);
  if (m.advice) out.push(cut(m.advice, 300));
  return out;
}

/** The links of a message: label and URL, vendor and statusd pages first. */
export function linkList(m: AlertMessage): { label: string; url: string }[] {
  const out: { label: string; url: string }[] = [];
  if (m.service) {
    out.push({ label: `${m.service.name} status page`, url: m.service.vendorUrl });
    out.push({ label: "statusd page", url: m.service.statusdUrl });
  }
  if (m.incident?.url) {
    out.push({
      label: `The incident on ${m.service?.name ?? "the vendor"}'s page`,
      url: m.incident.url,
    });
  }
  if (m.links.acknowledge) out.push({ label: "Acknowledge", url: m.links.acknowledge });
  if (m.links.confirm) out.push({ label: "Confirm", url: m.links.confirm });
  if (m.links.unsubscribe) out.push({ label: "Unsubscribe", url: m.links.unsubscribe });
  if (m.links.delivery) out.push({ label: "This alert in statusd", url: m.links.delivery });
  else if (m.links.alerts) out.push({ label: "Alerts in statusd", url: m.links.alerts });
  return out;
}

/** The colour of a level (Discord embeds, Teams accents), as a number. */
export function levelColour(level: StatusLevel): number {
  return {
    OPERATIONAL: 0x1a7f37,
    UNDER_MAINTENANCE: 0x0969da,
    DEGRADED_PERFORMANCE: 0xbf8700,
    PARTIAL_OUTAGE: 0xd1600f,
    MAJOR_OUTAGE: 0xcf222e,
    UNKNOWN: 0x6e7781,
  }[level];
}
