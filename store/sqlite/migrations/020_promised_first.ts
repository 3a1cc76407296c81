import { promisedFirst } from "../../shared/schema.ts";

/** Due vendors with a promised deadline are claimed before those without one. */
export default {
  version: 20,
  name: "promised_first",
  sql: promisedFirst(),
};
