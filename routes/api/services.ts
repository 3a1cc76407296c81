/**
 * `/api/services…`: the catalog, one service, its daily history and its uptime.
 * @module
 */
import { z } from "@hono/zod-openapi";
import {
  accountWarning,
  CATALOG_UPTIME_DAYS,
  getService,
  HISTORY_MAX_DAYS,
  listedAccount,
  listServices,
  OPEN,
  ownEyesOf,
  READ_SERVICE_HISTORY,
  SERVICE_SORTS,
  serviceHistory,
  serviceUptime,
  suggestSlugs,
} from "../../app/mod.ts";
import {
  ALL_STATUS_LEVELS,
  CATEGORIES,
  READING_STATES,
  type StatusLevel,
} from "../../domain/mod.ts";
import { ErrorSchema } from "../errors.ts";
import type { Register } from "../register.ts";
import { defineRoute } from "./define.ts";
import {
  historyJson,
  HistorySchema,
  pageJson,
  PageQuery,
  queryInteger,
  serviceDetailJson,
  ServiceDetailSchema,
  serviceJson,
  ServicePageSchema,
  SlugParam,
  uptimeJson,
  UptimeSchema,
} from "./schemas.ts";

const json = (schema: z.ZodType, description: string) => ({
  content: { "application/json": { schema } },
  description,
});
const badRequest = json(
  ErrorSchema,
  "`invalid_request`: a parameter is malformed or out of range; `issues` names it",
);
const notFound = json(
  ErrorSchema,
  "`not_found`: no service has this slug; `suggestions` lists close slugs",
);
const unauthorized = json(
  ErrorSchema,
  "`unauthorized`: the key or token sent is unknown or revoked",
);
const forbidden = json(ErrorSchema, "`insufficient_scope`: the key sent lacks `status:read`");

const ServiceQuery = z.object({
  status: z.enum(ALL_STATUS_LEVELS as [StatusLevel, ...StatusLevel[]]).optional().openapi({
    param: { name: "status", in: "query" },
    description: "Only services currently at this level",
    example: "MAJOR_OUTAGE",
  }),
  category: z.enum(CATEGORIES).optional().openapi({
    param: { name: "category", in: "query" },
    description: "Only services of this category",
    example: "cloud",
  }),
  provider: z.string().min(1).max(100).optional().openapi({
    param: { name: "provider", in: "query" },
    description: "Only services owned by this provider slug",
    example: "google",
  }),
  q: z.string().min(1).max(100).optional().openapi({
    param: { name: "q", in: "query" },
    description: "Search text (case-insensitive). Matches are ranked, best first: the name or " +
      "slug itself, then names and slugs that start with it (or whose initials or domain it " +
      "is, e.g. `aws`), then names with a word starting with it, then any other name or slug " +
      "containing it",
    example: "git",
  }),
  reading: z.enum(READING_STATES).optional().openapi({
    param: { name: "reading", in: "query" },
    description: "Only services whose reading is in this state (see `Reading`): `failing` " +
      "lists every vendor statusd cannot read right now, `unsupported` those it never can",
    example: "failing",
  }),
  sort: z.enum(SERVICE_SORTS).default("name").openapi({
    param: { name: "sort", in: "query" },
    description: "`name` (the default), or `slowest_to_admit`: only vendors with an " +
      "acknowledgement grade (3 or more episodes of trouble statusd saw itself in 90 days), " +
      "the longest average delay before the vendor admitted it first (see `trackRecord` on " +
      "getService). With `q`, matches are ranked instead",
    example: "slowest_to_admit",
  }),
  ...PageQuery,
});

const listServicesRoute = defineRoute({
  method: "get",
  path: "/api/services",
  operationId: "listServices",
  tags: ["Status"],
  summary: "List services with their current status",
  description:
    "The service catalog, one page at a time, ordered by name (case-insensitive) then slug, " +
    "or best match first when `q` is given, or slowest to admit trouble first with " +
    "`sort=slowest_to_admit`. " +
    "Each item carries `currentStatus` and `uptimePercent`, the " + CATALOG_UPTIME_DAYS +
    "-day uptime in percent (see getServiceUptime for how it is computed), and `reading`: " +
    "whether statusd can read the vendor (`fresh`, `stale`, `failing`, `unsupported`, " +
    "`never_read`), and if not why and since when. Filters combine with AND. Example: " +
    "`GET /api/services?status=MAJOR_OUTAGE&limit=100` lists every service in a major outage; " +
    "`GET /api/services?reading=failing` every service statusd cannot read right now. No " +
    "credential needed.",
  request: { query: ServiceQuery },
  responses: {
    200: json(ServicePageSchema, "A page envelope of services"),
    400: badRequest,
  },
}, OPEN);

const getServiceRoute = defineRoute({
  method: "get",
  path: "/api/services/{slug}",
  operationId: "getService",
  tags: ["Status"],
  summary: "Get one service with its components, open incidents and time to resolve",
  description:
    "The service's current normalised status (the worst of its page-level indicator and its " +
    "components), its 30-day `uptimePercent`, its `reading` health (can statusd read it; if " +
    "not, the error kind, HTTP status, message and since when; what the latest reading left " +
    "out), its components with their own status, and its open incidents and maintenances with " +
    "their full timelines (oldest entry first), and `timeToResolve`: the vendor's typical time " +
    "to resolve (p50 and p90 minutes of its incidents resolved in the last 90 days, overall " +
    "and per impact; maintenance left out); `earlyWarning`: statusd's own observation, apart " +
    "from the vendor's status — its probes of the vendor's endpoints failing, or members' " +
    "reports (`suspected`, then `acknowledged` once the vendor admits it, with the delay); " +
    "`trackRecord`: how quickly the vendor admits trouble statusd saw itself over 90 days, " +
    "graded A–F. An unknown slug answers 404 with " +
    "`suggestions`. No credential needed.",
  request: { params: SlugParam },
  responses: {
    200: json(ServiceDetailSchema, "The service"),
    404: notFound,
  },
}, OPEN);

const HistoryQuery = z.object({
  days: queryInteger(1, HISTORY_MAX_DAYS).default(HISTORY_MAX_DAYS).openapi({
    param: { name: "days", in: "query" },
    description:
      `Number of UTC days, 1..${HISTORY_MAX_DAYS} (default ${HISTORY_MAX_DAYS}), today included`,
    example: 30,
  }),
});

const historyRoute = defineRoute({
  method: "get",
  path: "/api/services/{slug}/history",
  operationId: "getServiceHistory",
  tags: ["Status"],
  summary: "Worst status per UTC day",
  description:
    "One entry per UTC day for the last `days` days, oldest first; the last entry is today so " +
    "far. `worstStatus` is the worst level the service held at any moment of that day " +
    "(UNKNOWN when statusd observed nothing that day). Open to anonymous callers; a caller " +
    "that sends a key must hold `status:read`.",
  request: { params: SlugParam, query: HistoryQuery },
  responses: {
    200: json(HistorySchema, "The daily history"),
    400: badRequest,
    401: unauthorized,
    403: forbidden,
    404: notFound,
  },
}, READ_SERVICE_HISTORY);

const uptimeRoute = defineRoute({
  method: "get",
  path: "/api/services/{slug}/uptime",
  operationId: "getServiceUptime",
  tags: ["Status"],
  summary: "7, 30 and 90-day uptime and MTTR",
  description:
    "Uptime in percent over the last 7, 30 and 90 days, computed from the service's status " +
    "transitions over time observed: MAJOR_OUTAGE time is down, PARTIAL_OUTAGE time counts 30 % " +
    "down, DEGRADED_PERFORMANCE and UNDER_MAINTENANCE time count as up, and UNKNOWN time " +
    "(statusd had no fresh data) is left out of the denominator: uptime = 100 × (1 − down / " +
    "observed). A window with nothing observed gives null. `mttrMinutes` is the mean length, " +
    "in minutes, of the disruptions (from entering DEGRADED_PERFORMANCE or worse until back to " +
    "OPERATIONAL or UNDER_MAINTENANCE; maintenance alone is not a disruption) that ended in the " +
    "last 90 days; `disruptions` is how many. `observedSince` and `observedPercent` say over " +
    "what period the figures were observed. Open to anonymous callers; a caller that sends a " +
    "key must hold `status:read`.",
  request: { params: SlugParam },
  responses: {
    200: json(UptimeSchema, "The uptime record"),
    401: unauthorized,
    403: forbidden,
    404: notFound,
  },
}, READ_SERVICE_HISTORY);

/** Mounts the service operations. */
export const registerServices: Register = (api, deps) => {
  const cache = deps.responseCache;
  api.openapi(listServicesRoute, async (c) => {
    const { limit, page, ...filter } = c.req.valid("query");
    const app = c.get("app");
    // A caller whose account added vendors by URL sees them listed too: not a shared answer.
    const account = await listedAccount(app, c.get("principal"));
    const list = async () => {
      const found = pageJson(
        await listServices(app, { ...filter, account }, { limit, page }),
        serviceJson,
      );
      const q = filter.q?.trim();
      return found.totalElements === 0 && q
        ? { ...found, didYouMean: await suggestSlugs(app, q) }
        : found;
    };
    return account === undefined ? cache.json(c, list) : c.json(await list(), 200);
  });
  api.openapi(getServiceRoute, async (c) => {
    const { slug } = c.req.valid("param");
    const app = c.get("app");
    const who = c.get("principal");
    const detail = async () => {
      const [s, eyes] = await Promise.all([getService(app, slug), ownEyesOf(app, slug, who)]);
      return serviceDetailJson(s, eyes, app.clock.now());
    };
    // A caller whose account reported the vendor lately sees its own warning: not a shared answer.
    const own = who.kind === "anonymous" ? null : await accountWarning(app, who, slug);
    return own === null ? cache.json(c, detail) : c.json(await detail(), 200);
  });
  api.openapi(historyRoute, (c) => {
    const { slug } = c.req.valid("param");
    const { days } = c.req.valid("query");
    return cache.json(
      c,
      async () => historyJson(await serviceHistory(c.get("app"), c.get("principal"), slug, days)),
    );
  });
  api.openapi(uptimeRoute, (c) => {
    const { slug } = c.req.valid("param");
    return cache.json(
      c,
      async () => uptimeJson(await serviceUptime(c.get("app"), c.get("principal"), slug)),
    );
  });
};
