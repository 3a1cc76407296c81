/** Who watches a changed service, and which services fail to read: as SQLite's migration 16. */
export default {
  version: 10,
  name: "alert_index",
  sql: `
CREATE INDEX monitors_service ON monitors (service_slug);
CREATE INDEX vendors_failing ON vendors (slug) WHERE failures > 0;
`,
};
