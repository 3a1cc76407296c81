/**
 * The planned window of a maintenance as the vendor announced it (Statuspage `scheduled_for` /
 * `scheduled_until`, status.io `datetime_planned_*`, …): NULL where the platform publishes
 * none. An index over unfinished incidents serves the maintenance calendar and deploy gate.
 */
export default {
  version: 8,
  name: "maintenance_window",
  sql: `
ALTER TABLE incidents ADD COLUMN scheduled_start_at INTEGER;
ALTER TABLE incidents ADD COLUMN scheduled_end_at INTEGER;
CREATE INDEX incidents_unfinished ON incidents (vendor_id)
  WHERE status NOT IN ('RESOLVED', 'COMPLETED');
`,
};
