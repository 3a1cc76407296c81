/**
 * Everything the service page shows, read in one snapshot of the store (so its status, bars,
 * uptime and incidents never mix two moments) and computed by the same rules as the separate
 * verbs (`getService`, `serviceUptime`, `serviceHistory`, `componentHistory`, `pastIncidents`).
 * @module
 */
import { ANONYMOUS, DAY_MS, type Incident, type ServiceDetail } from "../domain/mod.ts";
import { resolutionWindowStart } from "./_resolution.ts";
import { catalogWindow, serviceDetailOf, serviceNotFound } from "./catalog.ts";
import type { AppContext } from "./context.ts";
import type { Caller } from "./policy.ts";
import {
  HISTORY_MAX_DAYS,
  historyOf,
  type ServiceHistory,
  type ServiceUptime,
  uptimeOf,
} from "./reports.ts";
import { type ComponentHistory, componentHistoryOf, PAST_INCIDENTS_MAX } from "./track_record.ts";
import { type OwnEyes, ownEyesOf } from "./own_eyes.ts";

/** The service page's data. */
export interface ServicePageData {
  readonly s: ServiceDetail;
  readonly uptime: ServiceUptime;
  readonly history: ServiceHistory;
  readonly components: ComponentHistory[];
  readonly past: Incident[];
  /** What the vendor rewrote of its incidents in the page's 90 days (revisions, incidents). */
  readonly rewrites: { readonly revisions: number; readonly incidents: number };
  /** statusd's own early warning of the vendor and its acknowledgement record. */
  readonly eyes: OwnEyes;
}

/** One service's page data, over the last 90 days; NotFound for an unknown slug. */
export async function servicePageData(
  ctx: AppContext,
  slug: string,
  who: Caller = ANONYMOUS,
): Promise<ServicePageData> {
  const now = ctx.clock.now();
  const window = catalogWindow(ctx);
  const days = HISTORY_MAX_DAYS;
  const [found, eyes] = await Promise.all([
    ctx.store.history.servicePage(slug, {
      window,
      resolvedAfter: resolutionWindowStart(now),
      uptime: { start: now - 90 * DAY_MS, end: now },
      history: { start: now - days * DAY_MS, end: now },
      pastSince: now - days * DAY_MS,
      pastLimit: PAST_INCIDENTS_MAX,
    }),
    ownEyesOf(ctx, slug, who),
  ]);
  if (found === null) throw await serviceNotFound(ctx, slug);
  return {
    s: serviceDetailOf(ctx, found.detail, window, now),
    uptime: uptimeOf(found.uptime, now),
    history: historyOf(found.history, now, days),
    components: componentHistoryOf(found.history, now, days),
    past: [...found.past],
    rewrites: found.rewrites,
    eyes,
  };
}
