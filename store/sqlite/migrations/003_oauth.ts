import { oauthTables, SQLITE_TYPES } from "../../shared/schema.ts";

/**
 * The built-in OAuth 2.1 authorization server (PROTOCOLS §3): registered clients (dynamic
 * registration), authorization codes, grants (one per approval: the "connected client") and
 * the access and refresh tokens issued under a grant. Every secret (client secret, code,
 * token) is stored only as its SHA-256.
 */
export default {
  version: 3,
  name: "oauth",
  sql: oauthTables(SQLITE_TYPES),
};
