/**
 * The verbs every surface (REST, MCP, web pages, admin CLI) shares.
 * @module
 */
export type { AppContext, AppSettings } from "./context.ts";
export { authenticate } from "./auth.ts";
export * from "./accounts.ts";
export { HashGate, HASHING, passwordHashing } from "./password.ts";
export * from "./keys.ts";
export * from "./sessions.ts";
export * from "./sla.ts";
export * from "./oauth.ts";
export {
  CATALOG_UPTIME_DAYS,
  catalogCounts,
  changesSince,
  getService,
  latestChangeId,
  listIncidents,
  listServices,
  type PollHealth,
  pollHealth,
  type ProviderOverview,
  providersOverview,
  readingCounts,
  serviceLastChanges,
  serviceStatusOf,
  suggestSlugs,
} from "./catalog.ts";
export type { IncidentFilter, ServiceFilter, StoreCounts } from "./catalog.ts";
export {
  HISTORY_MAX_DAYS,
  type ServiceHistory,
  serviceHistory,
  type ServiceUptime,
  serviceUptime,
} from "./reports.ts";
export {
  CALENDAR_KEEP_FINISHED_DAYS,
  FEED_ITEMS,
  type IncidentFeed,
  incidentFeed,
  listMaintenances,
  maintenanceCalendar,
  MAINTENANCES_MAX,
  type MaintenanceScope,
  type NamedIncident,
} from "./maintenances.ts";
export {
  pruneExpired,
  RETENTION_SCHEDULE,
  type RetentionJob,
  type RetentionReport,
  startRetention,
} from "./retention.ts";
export {
  type ComponentHistory,
  componentHistory,
  PAST_INCIDENTS_MAX,
  pastIncidents,
  recentRecoveries,
  type Recovery,
  serviceTimeToResolve,
} from "./track_record.ts";
