/**
 * Atlassian Statuspage: `/api/v2/summary.json` (page indicator, components with groups,
 * unresolved incidents, scheduled and in-progress maintenances). See FORMATS.md §1.
 * @module
 */
import type { Impact, IncidentStatus, StatusLevel } from "../../domain/mod.ts";
import type { Adapter, ParseContext } from "./adapter.ts";
import { decodeJson, underPage } from "./_json_payload.ts";
import { statusJsonPulse } from "./_pulse.ts";
import { readStatuspageShape, type StatuspageTables } from "./_statuspage_shape.ts";

/** Page-level `status.indicator`. */
export const INDICATOR: Record<string, StatusLevel> = {
  none: "OPERATIONAL",
  minor: "DEGRADED_PERFORMANCE",
  major: "PARTIAL_OUTAGE",
  critical: "MAJOR_OUTAGE",
  maintenance: "UNDER_MAINTENANCE",
};

/** `components[].status`. */
export const COMPONENT_STATUS: Record<string, StatusLevel> = {
  operational: "OPERATIONAL",
  degraded_performance: "DEGRADED_PERFORMANCE",
  partial_outage: "PARTIAL_OUTAGE",
  major_outage: "MAJOR_OUTAGE",
  under_maintenance: "UNDER_MAINTENANCE",
};

/** `incidents[].status` and their updates' `status`. */
export const INCIDENT_STATUS: Record<string, IncidentStatus> = {
  investigating: "INVESTIGATING",
  identified: "IDENTIFIED",
  monitoring: "MONITORING",
  resolved: "RESOLVED",
  postmortem: "RESOLVED",
};

/** `scheduled_maintenances[].status` and their updates' `status`. */
export const MAINTENANCE_STATUS: Record<string, IncidentStatus> = {
  scheduled: "SCHEDULED",
  in_progress: "IN_PROGRESS",
  verifying: "IN_PROGRESS",
  completed: "COMPLETED",
};

/** `impact` of incidents and maintenances. */
export const IMPACT: Record<string, Impact> = {
  none: "NONE",
  minor: "MINOR",
  major: "MAJOR",
  critical: "CRITICAL",
  maintenance: "MAINTENANCE",
};

const TABLES: StatuspageTables = {
  indicator: INDICATOR,
  component: COMPONENT_STATUS,
  incidentStatus: INCIDENT_STATUS,
  maintenanceStatus: MAINTENANCE_STATUS,
  impact: IMPACT,
};

/**
 * The Statuspage adapter (also reads components.json, incidents.json,
 * scheduled-maintenances.json); its pulse is `/api/v2/status.json` (about 200 bytes), its
 * history `/api/v2/incidents.json`.
 */
export const statuspage: Adapter = {
  platform: "statuspage",
  endpoint: (vendor) => underPage(vendor.statusPageUrl, "api/v2/summary.json"),
  pulse: statusJsonPulse("statuspage"),
  // The 50 newest incidents, resolved ones included (not maintenance).
  history: { endpoint: (main) => new URL("incidents.json", main) },
  parse: (body: string, ctx: ParseContext) =>
    readStatuspageShape("statuspage", decodeJson("statuspage", body), TABLES, ctx),
};
