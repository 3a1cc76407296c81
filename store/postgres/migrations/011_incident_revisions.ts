import { incidentRevisions, POSTGRES_TYPES } from "../../shared/schema.ts";

/** What vendors rewrote of what they had published: as SQLite's migration 17. */
export default {
  version: 11,
  name: "incident_revisions",
  sql: incidentRevisions(POSTGRES_TYPES),
};
