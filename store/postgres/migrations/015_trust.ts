import { POSTGRES_TYPES, trust } from "../../shared/schema.ts";

/** statusd's own times on incidents, and reports that weigh in public: as SQLite's migration 21. */
export default {
  version: 15,
  name: "trust",
  sql: trust(POSTGRES_TYPES),
};
