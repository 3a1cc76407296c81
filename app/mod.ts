/**
 * The verbs every surface (REST, MCP, web pages, admin CLI) shares.
 * @module
 */
export type { AppContext, AppSettings } from "./context.ts";
export { authenticate } from "./auth.ts";
export * from "./accounts.ts";
export * from "./keys.ts";
export * from "./sessions.ts";
export * from "./oauth.ts";
