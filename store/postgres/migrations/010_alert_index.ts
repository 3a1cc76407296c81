import { alertIndex, POSTGRES_TYPES } from "../../shared/schema.ts";

/** Who watches a changed service, and which services fail to read: as SQLite's migration 16. */
export default {
  version: 10,
  name: "alert_index",
  sql: alertIndex(POSTGRES_TYPES),
};
