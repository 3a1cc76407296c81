import { accountDocs, SQLITE_TYPES } from "../../shared/schema.ts";

/** Groups and boards, stored alike (`store/shared/account_docs.ts`). */
export default {
  version: 11,
  name: "account_docs",
  sql: accountDocs(SQLITE_TYPES),
};
