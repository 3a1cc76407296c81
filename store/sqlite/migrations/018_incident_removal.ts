import { incidentRemoval, SQLITE_TYPES } from "../../shared/schema.ts";

/** Incidents a vendor took off its page are marked, not forgotten. */
export default {
  version: 18,
  name: "incident_removal",
  sql: incidentRemoval(SQLITE_TYPES),
};
