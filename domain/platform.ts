/**
 * The status-page platforms statusd reads (kept apart so a reading's rules and a service's
 * shape both name them without naming each other).
 * @module
 */

/** Status-page platforms statusd can read; `unknown` is detected once from the page. */
export const PLATFORMS = [
  "statuspage",
  "incidentio",
  "instatus",
  "statusio",
  "betterstack",
  "cachet",
  "rss",
  "google-cloud",
  "aws",
  "azure",
  "slack",
  "salesforce",
  "heroku",
  "html",
  "unknown",
] as const;
/** One of {@link PLATFORMS}. */
export type Platform = (typeof PLATFORMS)[number];
