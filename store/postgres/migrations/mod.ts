/**
 * Every PostgreSQL migration, in order. Each is a `.ts` module exporting its SQL so bundles
 * embed it. Numbered on their own: PostgreSQL's history starts at the schema SQLite reached in
 * its migration 9.
 * @module
 */
import type { Migration } from "../../shared/migration.ts";
import schema from "./001_schema.ts";
import leases from "./002_leases.ts";
import attempts from "./003_attempts.ts";
import monitors from "./004_monitors.ts";
import accountDocs from "./005_account_docs.ts";
import idempotency from "./006_idempotency.ts";
import alerting from "./007_alerting.ts";
import alertIndex from "./010_alert_index.ts";
import mail from "./009_mail.ts";
import pulseMemory from "./008_pulse_memory.ts";

import incidentRevisions from "./011_incident_revisions.ts";
import promisedFirst from "./014_promised_first.ts";
import earlyWarning from "./013_early_warning.ts";
import incidentRemoval from "./012_incident_removal.ts";
import vendorsByUrl from "./016_vendors_by_url.ts";
import trust from "./015_trust.ts";
/** The schema history; append new files, never edit shipped ones. */
export const MIGRATIONS: readonly Migration[] = [
  schema,
  leases,
  attempts,
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
