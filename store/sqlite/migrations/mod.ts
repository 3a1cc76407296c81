/**
 * Every migration, in order. Each is a `.ts` module exporting its SQL so bundles embed it.
 * @module
 */
import type { Migration } from "../../shared/migration.ts";
import engine from "./001_engine.ts";
import accounts from "./002_accounts.ts";
import oauth from "./003_oauth.ts";
import vendorEndpoint from "./004_vendor_endpoint.ts";
import readingHealth from "./005_reading_health.ts";
import boundedHistory from "./006_bounded_history.ts";
import maintenanceWindow from "./008_maintenance_window.ts";
import latencyDays from "./009_latency_days.ts";
import monitors from "./010_monitors.ts";
import accountDocs from "./011_account_docs.ts";
import idempotency from "./012_idempotency.ts";
import alerting from "./013_alerting.ts";
import alertIndex from "./016_alert_index.ts";
import mail from "./015_mail.ts";
import pulseMemory from "./014_pulse_memory.ts";
import incidentRevisions from "./017_incident_revisions.ts";
import promisedFirst from "./020_promised_first.ts";
import earlyWarning from "./019_early_warning.ts";
import incidentRemoval from "./018_incident_removal.ts";

import vendorsByUrl from "./022_vendors_by_url.ts";
import trust from "./021_trust.ts";
/** The schema history; append new files, never edit shipped ones. */
export const MIGRATIONS: readonly Migration[] = [
  engine,
  accounts,
  oauth,
  vendorEndpoint,
  readingHealth,
  boundedHistory,
  maintenanceWindow,
  latencyDays,
  monitors,
  accountDocs,
  idempotency,
  alerting,
  pulseMemory,
  mail,
  alertIndex,
  incidentRevisions,
  incidentRemoval,
  earlyWarning,
  promisedFirst,
  trust,
  vendorsByUrl,
];
