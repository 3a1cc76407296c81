import { SQLITE_TYPES, vendorsByUrl } from "../../shared/schema.ts";

/** Vendors' aliases and origin, and the status pages accounts added by URL. */
export default {
  version: 22,
  name: "vendors_by_url",
  sql: vendorsByUrl(SQLITE_TYPES),
};
