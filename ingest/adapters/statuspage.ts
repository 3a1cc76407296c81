/**
 * Atlassian Statuspage: `/api/v2/summary.json` (page indicator, components with groups,
 * unresolved incidents, scheduled and in-progress maintenances). See FORMATS.md §1.
 * @module
 */
import type { Adapter, ParseContext } from "./adapter.ts";
import { decodeJson, underPage } from "./_json_payload.ts";
import { statusJsonPulse } from "./_pulse.ts";
import { readStatuspageShape, STATUSPAGE_TABLES } from "./_statuspage_shape.ts";

/** Statuspage v2's words (`STATUSPAGE_TABLES`, table by table). */
export const {
  indicator: INDICATOR,
  component: COMPONENT_STATUS,
  incidentStatus: INCIDENT_STATUS,
  maintenanceStatus: MAINTENANCE_STATUS,
  impact: IMPACT,
} = STATUSPAGE_TABLES;

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
    readStatuspageShape("statuspage", decodeJson("statuspage", body), STATUSPAGE_TABLES, ctx),
};
