import { earlyWarning, SQLITE_TYPES } from "../../shared/schema.ts";

/** statusd's own eyes: probe schedule and memory, warning episodes, members' reports. */
export default {
  version: 19,
  name: "early_warning",
  sql: earlyWarning(SQLITE_TYPES),
};
