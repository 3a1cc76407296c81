import { earlyWarning, POSTGRES_TYPES } from "../../shared/schema.ts";

/** statusd's own eyes: as SQLite's migration 19. */
export default {
  version: 13,
  name: "early_warning",
  sql: earlyWarning(POSTGRES_TYPES),
};
