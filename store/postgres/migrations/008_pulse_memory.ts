import { POSTGRES_TYPES, pulseMemory } from "../../shared/schema.ts";

/** What the next pulse of a vendor compares with, as SQLite's migration 14. */
export default {
  version: 8,
  name: "pulse_memory",
  sql: pulseMemory(POSTGRES_TYPES),
};
