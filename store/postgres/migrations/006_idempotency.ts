import { idempotencyKeys, POSTGRES_TYPES } from "../../shared/schema.ts";

/** `Idempotency-Key` records of creates, as SQLite's migration 12. */
export default {
  version: 6,
  name: "idempotency",
  sql: idempotencyKeys(POSTGRES_TYPES),
};
