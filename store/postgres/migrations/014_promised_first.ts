import { promisedFirst } from "../../shared/schema.ts";

/** Due vendors with a promised deadline are claimed first: as SQLite's migration 20. */
export default {
  version: 14,
  name: "promised_first",
  sql: promisedFirst(),
};
