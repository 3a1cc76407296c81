import { POSTGRES_TYPES, trust } from "../../shared/schema.ts";
import { LIVE_INSTANCES_DDL } from "../liveness.ts";

/**
 * statusd's own times on incidents, reports that weigh in public, who made each key (as SQLite's
 * migration 21), and which instances are alive (PostgreSQL only).
 */
export default {
  version: 15,
  name: "trust",
  sql: trust(POSTGRES_TYPES) + LIVE_INSTANCES_DDL,
};
