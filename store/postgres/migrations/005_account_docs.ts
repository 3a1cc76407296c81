import { accountDocs, POSTGRES_TYPES } from "../../shared/schema.ts";

/** Groups and boards, as SQLite's migration 11. */
export default {
  version: 5,
  name: "account_docs",
  sql: accountDocs(POSTGRES_TYPES),
};
