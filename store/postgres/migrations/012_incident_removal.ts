import { incidentRemoval, POSTGRES_TYPES } from "../../shared/schema.ts";

/** Incidents a vendor took off its page are marked: as SQLite's migration 18. */
export default {
  version: 12,
  name: "incident_removal",
  sql: incidentRemoval(POSTGRES_TYPES),
};
