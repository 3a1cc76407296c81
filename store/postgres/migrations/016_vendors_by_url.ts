import { POSTGRES_TYPES, vendorsByUrl } from "../../shared/schema.ts";

/** Vendors' aliases and origin, and the status pages accounts added by URL (as SQLite's 22). */
export default {
  version: 16,
  name: "vendors_by_url",
  sql: vendorsByUrl(POSTGRES_TYPES),
};
