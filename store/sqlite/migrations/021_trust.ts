import { SQLITE_TYPES, trust } from "../../shared/schema.ts";

/** statusd's own times on incidents, and reports that weigh in public. */
export default {
  version: 21,
  name: "trust",
  sql: trust(SQLITE_TYPES),
};
