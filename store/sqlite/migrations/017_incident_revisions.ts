import { incidentRevisions, SQLITE_TYPES } from "../../shared/schema.ts";

/** What vendors rewrote of what they had published, with what statusd saw before. */
export default {
  version: 17,
  name: "incident_revisions",
  sql: incidentRevisions(SQLITE_TYPES),
};
