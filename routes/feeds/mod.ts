/**
 * What other software subscribes to or embeds: status badges, RSS/Atom incident feeds and
 * the maintenance calendar. All answer from the response cache (cleared by the change feed).
 * @module
 */
import { principal } from "../middleware/principal.ts";
import type { Register } from "../register.ts";
import { registerBadges } from "./badge.ts";
import { registerCalendar } from "./calendar.ts";
import { registerIncidentFeeds } from "./incidents.ts";

export { BADGE_LOOK, BADGE_STYLES } from "./badge.ts";
export { CALENDAR_TYPE } from "./calendar.ts";
export { FEED_FORMATS, feedPaths } from "./incidents.ts";

/** Paths declared like API operations: they need the caller (`principal`) their access rule reads. */
const DECLARED = [
  "/feed.rss",
  "/feed.atom",
  "/services/:slug/feed.rss",
  "/services/:slug/feed.atom",
  "/b/:slug/feed.rss",
  "/b/:slug/feed.atom",
  "/calendar.ics",
  "/b/:slug/calendar.ics",
];

/** Mounts badges, feeds and the calendar. */
export const registerFeeds: Register = (api, deps) => {
  for (const path of DECLARED) api.use(path, principal);
  registerBadges(api, deps);
  registerIncidentFeeds(api, deps);
  registerCalendar(api, deps);
};
