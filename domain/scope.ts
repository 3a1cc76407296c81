/**
 * The nine API-key scopes (SPEC §2), with what each grants.
 * @module
 */

/** Scope → what it grants; one table feeds the API, the settings page and the OpenAPI text. */
export const SCOPES = {
  "status:read": "Public service, provider and component status, uptime, status history",
  "incidents:read": "Incident timelines for the catalog and individual services",
  "sla:read": "SLA reports, uptime percentages, MTTR, latency percentiles, breach history",
  "monitors:read": "Monitors, boards and groups configured on the account",
  "monitors:write": "Create, update and delete monitors, boards, groups, subscriptions",
  "alerts:read": "Alert rules, routes, escalation policies, delivered alert events",
  "alerts:write": "Create, update and delete alert rules, routes, escalation policies",
  "account:read": "Account profile, plan, seats, API-key metadata",
  "mcp:invoke": "Call the MCP server at /api/mcp as an agent tool surface",
} as const;

/** One of the nine scope strings. */
export type Scope = keyof typeof SCOPES;

/** All nine, in the table's order. */
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

/** True for one of the nine exact scope strings. */
export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value);
}

/**
 * Scopes a key really holds: a key stored with no scope list (made before scopes existed)
 * or created with none selected holds all nine.
 */
export function effectiveScopes(stored: readonly Scope[] | null): Scope[] {
  return stored === null || stored.length === 0 ? [...ALL_SCOPES] : [...stored];
}
