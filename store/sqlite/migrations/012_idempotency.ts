import { idempotencyKeys, SQLITE_TYPES } from "../../shared/schema.ts";

/** `Idempotency-Key` records of creates: the first answer, replayed to retries. */
export default {
  version: 12,
  name: "idempotency",
  sql: idempotencyKeys(SQLITE_TYPES),
};
