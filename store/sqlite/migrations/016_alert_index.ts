/**
 * The alert evaluator works from what changed. `monitors_service` finds who watches a
 * changed service (and so which accounts' rules to read); `vendors_failing` finds the few
 * services whose reading fails without scanning the catalog.
 */
export default {
  version: 16,
  name: "alert_index",
  sql: `
CREATE INDEX monitors_service ON monitors (service_slug);
CREATE INDEX vendors_failing ON vendors (slug) WHERE failures > 0;
`,
};
