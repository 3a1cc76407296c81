import { alertIndex, SQLITE_TYPES } from "../../shared/schema.ts";

/**
 * The alert evaluator works from what changed. `monitors_service` finds who watches a
 * changed service (and so which accounts' rules to read); `vendors_failing` finds the few
 * services whose reading fails without scanning the catalog.
 */
export default {
  version: 16,
  name: "alert_index",
  sql: alertIndex(SQLITE_TYPES),
};
