/**
 * The words every part of statusd shares: status levels, incidents, services, scopes,
 * plans, errors, pages and time. Pure TypeScript: no I/O, imports nothing else of ours.
 * @module
 */
export * from "./status.ts";
export * from "./incident.ts";
export * from "./service.ts";
export * from "./time.ts";
export * from "./errors.ts";
export * from "./page.ts";
export * from "./scope.ts";
export * from "./account.ts";
export * from "./principal.ts";
export * from "./change.ts";
export * from "./uptime.ts";
export * from "./sla.ts";
export * from "./poll.ts";
export * from "./reading.ts";
export * from "./address.ts";
export * from "./bounds.ts";
export * from "./retention.ts";
export * from "./attempts.ts";
export * from "./search.ts";
export * from "./duration.ts";
export * from "./resolution.ts";
export * from "./days.ts";
