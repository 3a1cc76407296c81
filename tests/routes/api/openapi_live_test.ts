/**
 * The OpenAPI document against live answers: real requests through the app over a seeded
 * store, one per status each operation can produce. Each answer's status must be declared for
 * its operation, its content type must be one the document lists, its declared headers must be
 * present, and its JSON body must validate (ajv, JSON Schema 2020-12, OpenAPI 3.1's dialect)
 * against the schema declared for that status. Every declared (operation, status) pair must be
 * exercised, except the few listed in `NOT_PRODUCIBLE` with the reason.
 */
import { equal, ok } from "node:assert/strict";
import ajv2020 from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import { DAY_MS, HOUR_MS, type PageRead } from "../../../domain/mod.ts";
import {
  createBoard,
  createEscalation,
  createGroup,
  createMonitor,
  createRoute,
  createRule,
  createSubscription,
  sendTest,
} from "../../../app/mod.ts";
import { account, key, storeRawKey } from "../../support/accounts.ts";
import {
  addComponent,
  addIncident,
  addTransitions,
  addVendor,
  type ApiRig,
  apiRig,
  PUBLIC_URL,
  T0,
} from "../../support/api.ts";

interface MediaType {
  schema?: Record<string, unknown>;
}
interface ResponseObject {
  content?: Record<string, MediaType>;
  headers?: Record<string, unknown>;
}
interface Operation {
  operationId: string;
  responses: Record<string, ResponseObject>;
}
interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
}

/** One live request: which operation it is, what to send, what status it must get. */
interface Case {
  readonly op: string;
  readonly path: string;
  /** GET unless said; `body` is sent as JSON. */
  readonly method?: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly status: number;
  /** Send `If-None-Match` with the ETag a plain GET of the same path returns first. */
  readonly conditional?: boolean;
}

/**
 * Declared pairs no request can produce today. 429: no rate limit applies under /api yet (only
 * /oauth/register and sign-in are limited); the status is declared for the limiter that guards
 * every route. streamEvents 500: a store failure after the stream has started ends the stream;
 * the status line (200) has already been sent.
 */
const NOT_PRODUCIBLE = (op: string, status: number) =>
  status === 429 || (op === "streamEvents" && status === 500);

/** Pages the live rig can add by URL: any `crisp`/`more` page reads, anything else is no page. */
function readPage(url: string): Promise<PageRead> {
  return Promise.resolve(
    /crisp|more/.test(url)
      ? {
        ok: true,
        platform: "statuspage",
        name: "Crisp",
        url,
        hosts: [new URL(url).hostname],
        indicator: "OPERATIONAL",
        components: ["Chat"],
      }
      : { ok: false, reason: "not_a_status_page", message: "no status page answered" },
  );
}

async function seeded(): Promise<{ r: ApiRig; keys: Record<string, string> }> {
  const r = apiRig({ readStatusPage: readPage });
  await addVendor(r.store, { slug: "github", name: "GitHub", category: "devtools" });
  await addTransitions(r.store, "github", [
    [T0 - 20 * DAY_MS, "OPERATIONAL"],
    [T0 - 3 * DAY_MS, "MAJOR_OUTAGE"],
    [T0 - 3 * DAY_MS + 2 * HOUR_MS, "OPERATIONAL"],
    [T0 - HOUR_MS, "PARTIAL_OUTAGE"],
  ]);
  await addComponent(r.store, "github", {
    externalId: "api",
    name: "API",
    status: "PARTIAL_OUTAGE",
  });
  await addIncident(r.store, "github", {
    externalId: "1",
    title: "Degraded API",
    status: "INVESTIGATING",
    impact: "MAJOR",
    startedAt: T0 - HOUR_MS,
    componentIds: ["api"],
    updates: [{ at: T0 - HOUR_MS, status: "INVESTIGATING", body: "Looking into it." }],
  });
  await addVendor(r.store, { slug: "stripe", name: "Stripe", category: "payments" });
  await addVendor(r.store, { slug: "linear", name: "Linear" });
  await addVendor(r.store, { slug: "slack", name: "Slack" });
  const pro = await account(r.ctx, "owner@pro.test", "PRO");
  const free = await account(r.ctx, "owner@free.test", "FREE");
  // Forty-nine added pages: the fiftieth is the last the PRO account may add.
  for (let i = 0; i < 49; i++) {
    await r.store.catalog.addVendor(
      pro.account.id,
      {
        name: `Page ${i}`,
        slug: `page-${i}`,
        statusPageUrl: `https://status.page-${i}.test`,
        platform: "statuspage",
        domains: [],
      },
      T0,
      50,
    );
  }
  const admin = { kind: "admin", account: pro.account } as const;
  const kept = await createMonitor(r.ctx, admin, { service: "github", components: ["API"] });
  const doomed = await createMonitor(r.ctx, admin, { service: "github" });
  const group = await createGroup(r.ctx, admin, { name: "code", monitors: [kept.id] });
  const doomedGroup = await createGroup(r.ctx, admin, { name: "old" });
  const board = await createBoard(r.ctx, admin, {
    slug: "pro-stack",
    title: "Pro's stack",
    public: true,
    items: [{ kind: "group", id: group.id }, { kind: "monitor", id: kept.id }],
  });
  const doomedBoard = await createBoard(r.ctx, admin, { slug: "old-board", title: "old" });
  await createBoard(r.ctx, admin, { slug: "private-board", title: "private" });
  // A create with this key is in flight (as on another instance): a second one gets 409.
  await r.store.idempotency.begin(pro.account.id, "in-flight", "elsewhere", T0, 0);
  const hook = { kind: "slack", url: "https://hooks.example.com/services/T/B/X" };
  const route = await createRoute(r.ctx, admin, { name: "hooks", settings: hook });
  const doomedRoute = await createRoute(r.ctx, admin, { name: "old", settings: hook });
  const event = await sendTest(r.ctx, admin, route.route.id);
  const escalation = await createEscalation(r.ctx, admin, {
    name: "on call",
    steps: [{ routes: [route.route.id], afterMinutes: 0 }],
  });
  const doomedEscalation = await createEscalation(r.ctx, admin, {
    name: "old",
    steps: [{ routes: [route.route.id], afterMinutes: 0 }],
  });
  const subscription = await createSubscription(r.ctx, admin, {
    target: { kind: "monitor", id: kept.id },
    route: route.route.id,
  });
  const doomedSubscription = await createSubscription(r.ctx, admin, {
    target: { kind: "monitor", id: kept.id },
    route: route.route.id,
  });
  const rule = await createRule(r.ctx, admin, {
    name: "all",
    target: { kind: "all" },
    routes: [route.route.id],
  });
  const doomedRule = await createRule(r.ctx, admin, {
    name: "old",
    target: { kind: "monitor", id: kept.id },
    routes: [route.route.id],
  });
  return {
    r,
    keys: {
      route: route.route.id,
      doomedRoute: doomedRoute.route.id,
      event: event.id,
      rule: rule.id,
      doomedRule: doomedRule.id,
      escalation: escalation.id,
      subscription: subscription.id,
      doomedSubscription: doomedSubscription.id,
      doomedEscalation: doomedEscalation.id,
      group: group.id,
      doomedGroup: doomedGroup.id,
      board: board.id,
      doomedBoard: doomedBoard.id,
      monitor: kept.id,
      doomed: doomed.id,
      all: await key(r.ctx, pro, "all"),
      none: await key(r.ctx, pro, "mcp only", ["mcp:invoke"]),
      // A Free account cannot create keys; one stored before a downgrade still authenticates.
      free: await storeRawKey(r.ctx, free.account.id, "old", null),
    },
  };
}

function cases(keys: Record<string, string>): Case[] {
  const bad = { "x-api-key": "sd_live_unknown" };
  const all = { "x-api-key": keys.all! };
  const none = { authorization: `Bearer ${keys.none}` };
  const free = { "x-api-key": keys.free! };
  const long = "x".repeat(201);
  return [
    { op: "listServices", path: "/api/services?limit=1", status: 200 },
    { op: "listServices", path: "/api/services?limit=0", status: 400 },
    { op: "listServices", path: "/api/services", headers: bad, status: 401 },
    { op: "getService", path: "/api/services/github", status: 200 },
    { op: "getService", path: `/api/services/${long}`, status: 400 },
    { op: "getService", path: "/api/services/github", headers: bad, status: 401 },
    { op: "getService", path: "/api/services/githb", status: 404 },
    { op: "getServiceHistory", path: "/api/services/github/history?days=7", status: 200 },
    { op: "getServiceHistory", path: "/api/services/github/history?days=0", status: 400 },
    { op: "getServiceHistory", path: "/api/services/github/history", headers: bad, status: 401 },
    { op: "getServiceHistory", path: "/api/services/github/history", headers: none, status: 403 },
    { op: "getServiceHistory", path: "/api/services/githb/history", status: 404 },
    { op: "getServiceUptime", path: "/api/services/github/uptime", headers: all, status: 200 },
    { op: "getServiceUptime", path: `/api/services/${long}/uptime`, status: 400 },
    { op: "getServiceUptime", path: "/api/services/github/uptime", headers: bad, status: 401 },
    { op: "getServiceUptime", path: "/api/services/github/uptime", headers: none, status: 403 },
    { op: "getServiceUptime", path: "/api/services/githb/uptime", status: 404 },
    { op: "listIncidents", path: "/api/incidents?active=true", status: 200 },
    { op: "listIncidents", path: "/api/incidents?since=yesterday", status: 400 },
    { op: "listIncidents", path: "/api/incidents", headers: bad, status: 401 },
    { op: "listIncidents", path: "/api/incidents?service=nope", status: 404 },
    { op: "getProvidersOverview", path: "/api/status/providers-overview", status: 200 },
    { op: "getProvidersOverview", path: "/api/status/providers-overview?page=-1", status: 400 },
    {
      op: "getProvidersOverview",
      path: "/api/status/providers-overview",
      headers: bad,
      status: 401,
    },
    { op: "streamEvents", path: "/api/events", status: 200 },
    { op: "streamEvents", path: "/api/events", headers: { "last-event-id": "x" }, status: 400 },
    { op: "streamEvents", path: "/api/events", headers: bad, status: 401 },
    { op: "listApiKeys", path: "/api/user/api-keys", headers: all, status: 200 },
    { op: "listApiKeys", path: "/api/user/api-keys", status: 401 },
    { op: "listApiKeys", path: "/api/user/api-keys", headers: none, status: 403 },
    { op: "listApiKeys", path: "/api/user/api-keys", headers: free, status: 403 },
    { op: "listApiKeyScopes", path: "/api/user/api-keys/scopes", headers: none, status: 200 },
    { op: "listApiKeyScopes", path: "/api/user/api-keys/scopes", status: 401 },
    { op: "getServiceSlaReport", path: "/api/user/services/github/sla", headers: all, status: 200 },
    {
      op: "getServiceSlaReport",
      path: "/api/user/services/github/sla?days=0",
      headers: all,
      status: 400,
    },
    { op: "getServiceSlaReport", path: "/api/user/services/github/sla", status: 401 },
    {
      op: "getServiceSlaReport",
      path: "/api/user/services/github/sla",
      headers: none,
      status: 403,
    },
    {
      op: "getServiceSlaReport",
      path: "/api/user/services/github/sla",
      headers: free,
      status: 403,
    },
    {
      op: "getServiceSlaReport",
      path: "/api/user/services/githb/sla",
      headers: all,
      status: 404,
    },
    { op: "listMaintenances", path: "/api/maintenances?within=2h", status: 200 },
    { op: "listMaintenances", path: "/api/maintenances?within=forever", status: 400 },
    { op: "listMaintenances", path: "/api/maintenances", headers: bad, status: 401 },
    { op: "listMaintenances", path: "/api/maintenances?service=nope", status: 404 },
    { op: "getServiceBadge", path: "/badge/github.svg", status: 200 },
    { op: "getServiceBadge", path: "/badge/github.svg", status: 304, conditional: true },
    { op: "getServiceBadge", path: "/badge/github.svg?style=wavy", status: 400 },
    { op: "getServiceBadge", path: "/badge/githb.svg", status: 404 },
    { op: "getBoardBadge", path: "/badge/board/pro-stack.svg", status: 200 },
    { op: "getBoardBadge", path: "/badge/board/pro-stack.svg", status: 304, conditional: true },
    { op: "getBoardBadge", path: "/badge/board/pro-stack.svg?style=wavy", status: 400 },
    { op: "getBoardBadge", path: "/badge/board/private-board.svg", status: 404 },
    { op: "getBoardMaintenanceCalendar", path: "/b/pro-stack/calendar.ics", status: 200 },
    {
      op: "getBoardMaintenanceCalendar",
      path: "/b/pro-stack/calendar.ics",
      status: 304,
      conditional: true,
    },
    { op: "getBoardMaintenanceCalendar", path: `/b/${"x".repeat(101)}/calendar.ics`, status: 400 },
    { op: "getBoardMaintenanceCalendar", path: "/b/private-board/calendar.ics", status: 404 },
    { op: "getServiceShieldsBadge", path: "/badge/github.json", status: 200 },
    { op: "getServiceShieldsBadge", path: "/badge/github.json", status: 304, conditional: true },
    {
      op: "getServiceShieldsBadge",
      path: `/badge/github.json?label=${"x".repeat(65)}`,
      status: 400,
    },
    { op: "getServiceShieldsBadge", path: "/badge/githb.json", status: 404 },
    { op: "getBoardShieldsBadge", path: "/b/pro-stack/badge.json", status: 200 },
    { op: "getBoardShieldsBadge", path: "/b/pro-stack/badge.json", status: 304, conditional: true },
    {
      op: "getBoardShieldsBadge",
      path: `/b/pro-stack/badge.json?label=${"x".repeat(65)}`,
      status: 400,
    },
    { op: "getBoardShieldsBadge", path: "/b/private-board/badge.json", status: 404 },
    { op: "getMaintenanceCalendar", path: "/calendar.ics?board=pro-stack", status: 200 },
    { op: "getMaintenanceCalendar", path: "/calendar.ics?board=private-board", status: 404 },
    ...(["Rss", "Atom"] as const).flatMap((kind): Case[] => {
      const ext = kind.toLowerCase();
      const op = `getBoardIncidents${kind}`;
      return [
        { op, path: `/b/pro-stack/feed.${ext}`, status: 200 },
        { op, path: `/b/pro-stack/feed.${ext}`, status: 304, conditional: true },
        { op, path: `/b/${long}/feed.${ext}`, status: 400 },
        { op, path: `/b/pro-stack/feed.${ext}`, headers: bad, status: 401 },
        { op, path: `/b/private-board/feed.${ext}`, status: 404 },
      ];
    }),
    ...(["Rss", "Atom"] as const).flatMap((kind): Case[] => {
      const ext = kind.toLowerCase();
      const all = `getIncidents${kind}`;
      const one = `getServiceIncidents${kind}`;
      return [
        { op: all, path: `/feed.${ext}`, status: 200 },
        { op: all, path: `/feed.${ext}`, status: 304, conditional: true },
        { op: all, path: `/feed.${ext}`, headers: bad, status: 401 },
        { op: one, path: `/services/github/feed.${ext}`, status: 200 },
        { op: one, path: `/services/github/feed.${ext}`, status: 304, conditional: true },
        { op: one, path: `/services/${long}/feed.${ext}`, status: 400 },
        { op: one, path: `/services/github/feed.${ext}`, headers: bad, status: 401 },
        { op: one, path: `/services/githb/feed.${ext}`, status: 404 },
      ];
    }),
    { op: "getMaintenanceCalendar", path: "/calendar.ics", status: 200 },
    { op: "getMaintenanceCalendar", path: "/calendar.ics", status: 304, conditional: true },
    { op: "getMaintenanceCalendar", path: `/calendar.ics?provider=${long}`, status: 400 },
    { op: "getMaintenanceCalendar", path: "/calendar.ics", headers: bad, status: 401 },
    {
      op: "getBoardMaintenanceCalendar",
      path: "/b/pro-stack/calendar.ics",
      headers: bad,
      status: 401,
    },
    { op: "getMaintenanceCalendar", path: "/calendar.ics?service=nope", status: 404 },
    ...monitorCases(keys),
    ...vendorCases(keys),
    ...alertCases(keys),
    ...docCases(keys, "Group", "groups", "group", "doomedGroup", { name: "new" }, { name: 5 }),
    ...docCases(keys, "Board", "boards", "board", "doomedBoard", {
      slug: "fresh-board",
      title: "new",
    }, { slug: "NO SPACES", title: "x" }),
    { op: "getPublicBoard", path: "/api/boards/pro-stack", status: 200 },
    { op: "getPublicBoard", path: `/api/boards/${"x".repeat(101)}`, status: 400 },
    { op: "getPublicBoard", path: "/api/boards/pro-stack", headers: bad, status: 401 },
    { op: "getPublicBoard", path: "/api/boards/private-board", status: 404 },
  ];
}

/** Every status of the five operations of groups or boards. */
function docCases(
  keys: Record<string, string>,
  op: string,
  plural: string,
  kept: string,
  doomed: string,
  good: Record<string, unknown>,
  bad: Record<string, unknown>,
): Case[] {
  const badKey = { "x-api-key": "sd_live_unknown" };
  const all = { "x-api-key": keys.all! };
  const none = { authorization: `Bearer ${keys.none}` };
  const list = `/api/user/${plural}`;
  const one = `${list}/${keys[kept]}`;
  const body = op === "Group" ? { name: "renamed" } : { title: "renamed" };
  return [
    {
      op: `create${op}`,
      method: "POST",
      path: list,
      headers: { ...all, "idempotency-key": `reused-${op}` },
      body: { ...good, ...(op === "Board" ? { slug: "reused-board" } : {}) },
      status: 201,
    },
    {
      op: `create${op}`,
      method: "POST",
      path: list,
      headers: { ...all, "idempotency-key": `reused-${op}` },
      body: { ...good, ...(op === "Board" ? { slug: "another-one" } : { name: "another" }) },
      status: 422,
    },
    {
      op: `create${op}`,
      method: "POST",
      path: list,
      headers: { ...all, "idempotency-key": "in-flight" },
      body: good,
      status: 409,
    },
    { op: `list${op}s`, path: list, headers: all, status: 200 },
    { op: `list${op}s`, path: `${list}?limit=0`, headers: all, status: 400 },
    { op: `list${op}s`, path: list, headers: badKey, status: 401 },
    { op: `list${op}s`, path: list, headers: none, status: 403 },
    { op: `create${op}`, method: "POST", path: list, headers: all, body: good, status: 201 },
    { op: `create${op}`, method: "POST", path: list, headers: all, body: bad, status: 400 },
    { op: `create${op}`, method: "POST", path: list, headers: badKey, body: good, status: 401 },
    { op: `create${op}`, method: "POST", path: list, headers: none, body: good, status: 403 },
    { op: `get${op}`, path: one, headers: all, status: 200 },
    { op: `get${op}`, path: `${list}/${"x".repeat(101)}`, headers: all, status: 400 },
    { op: `get${op}`, path: one, headers: badKey, status: 401 },
    { op: `get${op}`, path: one, headers: none, status: 403 },
    { op: `get${op}`, path: `${list}/nope`, headers: all, status: 404 },
    { op: `update${op}`, method: "PATCH", path: one, headers: all, body, status: 200 },
    {
      op: `update${op}`,
      method: "PATCH",
      path: one,
      headers: { ...all, "if-match": "v1" },
      body,
      status: 400,
    },
    { op: `update${op}`, method: "PATCH", path: one, headers: badKey, body, status: 401 },
    { op: `update${op}`, method: "PATCH", path: one, headers: none, body, status: 403 },
    { op: `update${op}`, method: "PATCH", path: `${list}/nope`, headers: all, body, status: 404 },
    {
      op: `update${op}`,
      method: "PATCH",
      path: one,
      headers: { ...all, "if-match": '"v99"' },
      body,
      status: 412,
    },
    {
      op: `delete${op}`,
      method: "DELETE",
      path: one,
      headers: { ...all, "if-match": "v1" },
      status: 400,
    },
    { op: `delete${op}`, method: "DELETE", path: one, headers: badKey, status: 401 },
    { op: `delete${op}`, method: "DELETE", path: one, headers: none, status: 403 },
    { op: `delete${op}`, method: "DELETE", path: `${list}/nope`, headers: all, status: 404 },
    {
      op: `delete${op}`,
      method: "DELETE",
      path: one,
      headers: { ...all, "if-match": '"v99"' },
      status: 412,
    },
    {
      op: `delete${op}`,
      method: "DELETE",
      path: `${list}/${keys[doomed]}`,
      headers: all,
      status: 204,
    },
  ];
}

/** The monitors API: every status of each operation. */
function monitorCases(keys: Record<string, string>): Case[] {
  const bad = { "x-api-key": "sd_live_unknown" };
  const all = { "x-api-key": keys.all! };
  const none = { authorization: `Bearer ${keys.none}` };
  const one = `/api/user/monitors/${keys.monitor}`;
  const gone = `/api/user/monitors/${keys.doomed}`;
  const list = "/api/user/monitors";
  const patch = { paused: true };
  return [
    {
      op: "createMonitor",
      method: "POST",
      path: list,
      headers: { ...all, "idempotency-key": "once" },
      body: { service: "linear" },
      status: 201,
    },
    {
      op: "createMonitor",
      method: "POST",
      path: list,
      headers: { ...all, "idempotency-key": "once" },
      body: { service: "stripe" },
      status: 422,
    },
    {
      op: "createMonitor",
      method: "POST",
      path: list,
      headers: { ...all, "idempotency-key": "in-flight" },
      body: { service: "github" },
      status: 409,
    },
    {
      op: "reportTrouble",
      method: "POST",
      path: "/api/user/reports",
      headers: all,
      body: { service: "stripe", component: "API", note: "502s at checkout" },
      status: 201,
    },
    {
      op: "reportTrouble",
      method: "POST",
      path: "/api/user/reports",
      headers: all,
      body: { service: "stripe", note: "x".repeat(1001) },
      status: 400,
    },
    {
      op: "reportTrouble",
      method: "POST",
      path: "/api/user/reports",
      headers: bad,
      body: { service: "stripe" },
      status: 401,
    },
    {
      op: "reportTrouble",
      method: "POST",
      path: "/api/user/reports",
      headers: none,
      body: { service: "stripe" },
      status: 403,
    },
    { op: "listReports", path: "/api/user/reports", headers: all, status: 200 },
    { op: "listReports", path: "/api/user/reports", headers: bad, status: 401 },
    { op: "listReports", path: "/api/user/reports", headers: none, status: 403 },
    { op: "listMonitors", path: list, headers: all, status: 200 },
    { op: "listMonitors", path: `${list}?limit=0`, headers: all, status: 400 },
    { op: "listMonitors", path: list, headers: bad, status: 401 },
    { op: "listMonitors", path: list, headers: none, status: 403 },
    {
      op: "createMonitor",
      method: "POST",
      path: list,
      headers: all,
      body: { service: "slack" },
      status: 201,
    },
    {
      op: "createMonitor",
      method: "POST",
      path: list,
      headers: all,
      body: { service: "github", components: ["API"] },
      status: 409,
    },
    {
      op: "createMonitor",
      method: "POST",
      path: list,
      headers: all,
      body: { service: "githb" },
      status: 400,
    },
    {
      op: "createMonitor",
      method: "POST",
      path: list,
      headers: bad,
      body: { service: "github" },
      status: 401,
    },
    {
      op: "createMonitor",
      method: "POST",
      path: list,
      headers: none,
      body: { service: "github" },
      status: 403,
    },
    { op: "getMonitor", path: one, headers: all, status: 200 },
    { op: "getMonitor", path: `${list}/${"x".repeat(101)}`, headers: all, status: 400 },
    { op: "getMonitor", path: one, headers: bad, status: 401 },
    { op: "getMonitor", path: one, headers: none, status: 403 },
    { op: "getMonitor", path: `${list}/mon_nope`, headers: all, status: 404 },
    { op: "updateMonitor", method: "PATCH", path: one, headers: all, body: patch, status: 200 },
    {
      op: "updateMonitor",
      method: "PATCH",
      path: one,
      headers: { ...all, "if-match": "v1" },
      body: patch,
      status: 400,
    },
    { op: "updateMonitor", method: "PATCH", path: one, headers: bad, body: patch, status: 401 },
    { op: "updateMonitor", method: "PATCH", path: one, headers: none, body: patch, status: 403 },
    {
      op: "updateMonitor",
      method: "PATCH",
      path: `${list}/mon_nope`,
      headers: all,
      body: patch,
      status: 404,
    },
    {
      op: "updateMonitor",
      method: "PATCH",
      path: one,
      headers: { ...all, "if-match": '"v99"' },
      body: patch,
      status: 412,
    },
    {
      op: "deleteMonitor",
      method: "DELETE",
      path: one,
      headers: { ...all, "if-match": "v1" },
      status: 400,
    },
    { op: "deleteMonitor", method: "DELETE", path: one, headers: bad, status: 401 },
    { op: "deleteMonitor", method: "DELETE", path: one, headers: none, status: 403 },
    { op: "deleteMonitor", method: "DELETE", path: `${list}/mon_nope`, headers: all, status: 404 },
    {
      op: "deleteMonitor",
      method: "DELETE",
      path: one,
      headers: { ...all, "if-match": '"v99"' },
      status: 412,
    },
    { op: "deleteMonitor", method: "DELETE", path: gone, headers: all, status: 204 },
    ...suggestionCases(all, bad, none),
  ];
}

/** Every status of the alerting operations. */
/** Status pages added by URL (the PRO account has 49 already). */
function vendorCases(keys: Record<string, string>): Case[] {
  const bad = { "x-api-key": "sd_live_unknown" };
  const all = { "x-api-key": keys.all! };
  const none = { authorization: `Bearer ${keys.none}` };
  const free = { "x-api-key": keys.free! };
  const path = "/api/user/vendors";
  const add = (headers: Record<string, string>, statusPageUrl: unknown, status: number): Case => ({
    op: "addVendor",
    method: "POST",
    path,
    headers,
    body: { statusPageUrl },
    status,
  });
  const lookup = (target: string) => `/api/lookup?target=${encodeURIComponent(target)}`;
  return [
    { op: "lookupVendor", path: lookup("https://api.github.com/repos"), status: 200 },
    { op: "lookupVendor", path: lookup("nothing here"), headers: all, status: 200 },
    { op: "lookupVendor", path: "/api/lookup", status: 400 },
    { op: "lookupVendor", path: lookup("github.com"), headers: bad, status: 401 },
    { op: "lookupVendor", path: lookup("github.com"), headers: none, status: 403 },
    add(all, "https://status.crisp.test", 201),
    add(all, "https://status.crisp.test/", 200),
    add(all, "https://status.more.test", 409),
    add(free, "https://status.nothing.test", 422),
    add(all, "not a url", 400),
    add(bad, "https://status.crisp.test", 401),
    add(none, "https://status.crisp.test", 403),
    { op: "listAddedVendors", path, headers: all, status: 200 },
    { op: "listAddedVendors", path, headers: bad, status: 401 },
    { op: "listAddedVendors", path, headers: none, status: 403 },
    {
      op: "removeAddedVendor",
      method: "DELETE",
      path: `${path}/page-0`,
      headers: all,
      status: 204,
    },
    {
      op: "removeAddedVendor",
      method: "DELETE",
      path: `${path}/page-0`,
      headers: all,
      status: 404,
    },
    {
      op: "removeAddedVendor",
      method: "DELETE",
      path: `${path}/${"x".repeat(101)}`,
      headers: all,
      status: 400,
    },
    {
      op: "removeAddedVendor",
      method: "DELETE",
      path: `${path}/page-1`,
      headers: bad,
      status: 401,
    },
    {
      op: "removeAddedVendor",
      method: "DELETE",
      path: `${path}/page-1`,
      headers: none,
      status: 403,
    },
  ];
}

function alertCases(keys: Record<string, string>): Case[] {
  const bad = { "x-api-key": "sd_live_unknown" };
  const all = { "x-api-key": keys.all! };
  const none = { authorization: `Bearer ${keys.none}` };
  const list = "/api/user/alert-routes";
  const one = `${list}/${keys.route}`;
  const events = "/api/user/alert-events";
  const event = `${events}/${keys.event}`;
  const good = { name: "n", settings: { kind: "discord", url: "https://discord.example/api/w" } };
  const c = (
    op: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    status: number,
    body?: unknown,
  ): Case => ({ op, method, path, headers, status, ...(body === undefined ? {} : { body }) });
  return [
    c("listAlertRoutes", "GET", list, all, 200),
    c("listAlertRoutes", "GET", `${list}?limit=0`, all, 400),
    c("listAlertRoutes", "GET", list, bad, 401),
    c("listAlertRoutes", "GET", list, none, 403),
    c("createAlertRoute", "POST", list, { ...all, "idempotency-key": "route-once" }, 201, good),
    c("createAlertRoute", "POST", list, { ...all, "idempotency-key": "route-once" }, 422, {
      ...good,
      name: "other",
    }),
    c("createAlertRoute", "POST", list, { ...all, "idempotency-key": "in-flight" }, 409, good),
    c("createAlertRoute", "POST", list, all, 400, { name: "n", settings: { kind: "fax" } }),
    c("createAlertRoute", "POST", list, bad, 401, good),
    c("createAlertRoute", "POST", list, none, 403, good),
    c("getAlertRoute", "GET", one, all, 200),
    c("getAlertRoute", "GET", `${list}/${"x".repeat(101)}`, all, 400),
    c("getAlertRoute", "GET", one, bad, 401),
    c("getAlertRoute", "GET", one, none, 403),
    c("getAlertRoute", "GET", `${list}/rt_nope`, all, 404),
    c("updateAlertRoute", "PATCH", one, all, 200, { name: "renamed" }),
    c("updateAlertRoute", "PATCH", one, all, 400, { paused: true }),
    c("updateAlertRoute", "PATCH", one, bad, 401, { name: "x" }),
    c("updateAlertRoute", "PATCH", one, none, 403, { name: "x" }),
    c("updateAlertRoute", "PATCH", `${list}/rt_nope`, all, 404, { name: "x" }),
    c("updateAlertRoute", "PATCH", one, { ...all, "if-match": '"v99"' }, 412, { name: "x" }),
    c("testAlertRoute", "POST", `${one}/test`, all, 202),
    c("testAlertRoute", "POST", `${list}/${"x".repeat(101)}/test`, all, 400),
    c("testAlertRoute", "POST", `${one}/test`, bad, 401),
    c("testAlertRoute", "POST", `${one}/test`, none, 403),
    c("testAlertRoute", "POST", `${list}/rt_nope/test`, all, 404),
    c("listAlertEvents", "GET", events, all, 200),
    c("listAlertEvents", "GET", `${events}?state=lost`, all, 400),
    c("listAlertEvents", "GET", events, bad, 401),
    c("listAlertEvents", "GET", events, none, 403),
    c("getAlertEvent", "GET", event, all, 200),
    c("getAlertEvent", "GET", `${events}/${"x".repeat(101)}`, all, 400),
    c("getAlertEvent", "GET", event, bad, 401),
    c("getAlertEvent", "GET", event, none, 403),
    c("getAlertEvent", "GET", `${events}/dlv_nope`, all, 404),
    c("redeliverAlertEvent", "POST", `${event}/redeliver`, all, 202),
    c("redeliverAlertEvent", "POST", `${events}/${"x".repeat(101)}/redeliver`, all, 400),
    c("redeliverAlertEvent", "POST", `${event}/redeliver`, bad, 401),
    c("redeliverAlertEvent", "POST", `${event}/redeliver`, none, 403),
    c("redeliverAlertEvent", "POST", `${events}/dlv_nope/redeliver`, all, 404),
    c("deleteAlertRoute", "DELETE", one, { ...all, "if-match": "v1" }, 400),
    c("deleteAlertRoute", "DELETE", one, bad, 401),
    c("deleteAlertRoute", "DELETE", one, none, 403),
    c("deleteAlertRoute", "DELETE", `${list}/rt_nope`, all, 404),
    c("deleteAlertRoute", "DELETE", one, { ...all, "if-match": '"v99"' }, 412),
    c("deleteAlertRoute", "DELETE", `${list}/${keys.doomedRoute}`, all, 204),
    ...ruleCases(keys, c),
    ...escalationCases(keys, c),
    ...subscriptionCases(keys, c),
    c("acknowledgeAlertEvent", "POST", `${event}/acknowledge`, all, 200),
    c("acknowledgeAlertEvent", "POST", `${events}/${"x".repeat(101)}/acknowledge`, all, 400),
    c("acknowledgeAlertEvent", "POST", `${event}/acknowledge`, bad, 401),
    c("acknowledgeAlertEvent", "POST", `${event}/acknowledge`, none, 403),
    c("acknowledgeAlertEvent", "POST", `${events}/dlv_nope/acknowledge`, all, 404),
  ];
}

/** Every status of the subscription operations. */
function subscriptionCases(
  keys: Record<string, string>,
  c: (
    op: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    status: number,
    body?: unknown,
  ) => Case,
): Case[] {
  const bad = { "x-api-key": "sd_live_unknown" };
  const all = { "x-api-key": keys.all! };
  const none = { authorization: `Bearer ${keys.none}` };
  const list = "/api/user/subscriptions";
  const one = `${list}/${keys.subscription}`;
  const good = { target: { kind: "monitor", id: keys.monitor }, route: keys.route };
  return [
    c("listSubscriptions", "GET", list, all, 200),
    c("listSubscriptions", "GET", `${list}?limit=0`, all, 400),
    c("listSubscriptions", "GET", list, bad, 401),
    c("listSubscriptions", "GET", list, none, 403),
    c("createSubscription", "POST", list, { ...all, "idempotency-key": "sub-once" }, 201, good),
    c("createSubscription", "POST", list, { ...all, "idempotency-key": "sub-once" }, 422, {
      ...good,
      route: "rt_other",
    }),
    c("createSubscription", "POST", list, { ...all, "idempotency-key": "in-flight" }, 409, good),
    c("createSubscription", "POST", list, all, 400, { target: good.target }),
    c("createSubscription", "POST", list, bad, 401, good),
    c("createSubscription", "POST", list, none, 403, good),
    c("getSubscription", "GET", one, all, 200),
    c("getSubscription", "GET", `${list}/${"x".repeat(101)}`, all, 400),
    c("getSubscription", "GET", one, bad, 401),
    c("getSubscription", "GET", one, none, 403),
    c("getSubscription", "GET", `${list}/sub_nope`, all, 404),
    c("deleteSubscription", "DELETE", one, { ...all, "if-match": "v1" }, 400),
    c("deleteSubscription", "DELETE", one, bad, 401),
    c("deleteSubscription", "DELETE", one, none, 403),
    c("deleteSubscription", "DELETE", one, { ...all, "if-match": '"v99"' }, 412),
    c("deleteSubscription", "DELETE", `${list}/sub_nope`, all, 404),
    c("deleteSubscription", "DELETE", `${list}/${keys.doomedSubscription}`, all, 204),
  ];
}

/** Every status of the escalation policy operations. */
function escalationCases(
  keys: Record<string, string>,
  c: (
    op: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    status: number,
    body?: unknown,
  ) => Case,
): Case[] {
  const bad = { "x-api-key": "sd_live_unknown" };
  const all = { "x-api-key": keys.all! };
  const none = { authorization: `Bearer ${keys.none}` };
  const list = "/api/user/escalation-policies";
  const one = `${list}/${keys.escalation}`;
  const good = { name: "p", steps: [{ routes: [keys.route], afterMinutes: 0 }] };
  return [
    c("listEscalationPolicies", "GET", list, all, 200),
    c("listEscalationPolicies", "GET", `${list}?limit=0`, all, 400),
    c("listEscalationPolicies", "GET", list, bad, 401),
    c("listEscalationPolicies", "GET", list, none, 403),
    c("createEscalationPolicy", "POST", list, { ...all, "idempotency-key": "esc-once" }, 201, good),
    c("createEscalationPolicy", "POST", list, { ...all, "idempotency-key": "esc-once" }, 422, {
      ...good,
      name: "other",
    }),
    c(
      "createEscalationPolicy",
      "POST",
      list,
      { ...all, "idempotency-key": "in-flight" },
      409,
      good,
    ),
    c("createEscalationPolicy", "POST", list, all, 400, { name: "p", steps: [] }),
    c("createEscalationPolicy", "POST", list, bad, 401, good),
    c("createEscalationPolicy", "POST", list, none, 403, good),
    c("getEscalationPolicy", "GET", one, all, 200),
    c("getEscalationPolicy", "GET", `${list}/${"x".repeat(101)}`, all, 400),
    c("getEscalationPolicy", "GET", one, bad, 401),
    c("getEscalationPolicy", "GET", one, none, 403),
    c("getEscalationPolicy", "GET", `${list}/esc_nope`, all, 404),
    c("updateEscalationPolicy", "PATCH", one, all, 200, { repeat: 2 }),
    c("updateEscalationPolicy", "PATCH", one, all, 400, { repeat: 9 }),
    c("updateEscalationPolicy", "PATCH", one, bad, 401, { name: "x" }),
    c("updateEscalationPolicy", "PATCH", one, none, 403, { name: "x" }),
    c("updateEscalationPolicy", "PATCH", `${list}/esc_nope`, all, 404, { name: "x" }),
    c("updateEscalationPolicy", "PATCH", one, { ...all, "if-match": '"v99"' }, 412, { name: "x" }),
    c("deleteEscalationPolicy", "DELETE", one, { ...all, "if-match": "v1" }, 400),
    c("deleteEscalationPolicy", "DELETE", one, bad, 401),
    c("deleteEscalationPolicy", "DELETE", one, none, 403),
    c("deleteEscalationPolicy", "DELETE", `${list}/esc_nope`, all, 404),
    c("deleteEscalationPolicy", "DELETE", one, { ...all, "if-match": '"v99"' }, 412),
    c("deleteEscalationPolicy", "DELETE", `${list}/${keys.doomedEscalation}`, all, 204),
  ];
}

/** Every status of the alert rule operations. */
function ruleCases(
  keys: Record<string, string>,
  c: (
    op: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    status: number,
    body?: unknown,
  ) => Case,
): Case[] {
  const bad = { "x-api-key": "sd_live_unknown" };
  const all = { "x-api-key": keys.all! };
  const none = { authorization: `Bearer ${keys.none}` };
  const list = "/api/user/alert-rules";
  const one = `${list}/${keys.rule}`;
  const good = { name: "r", target: { kind: "all" }, routes: [keys.route] };
  return [
    c("listAlertRules", "GET", list, all, 200),
    c("listAlertRules", "GET", `${list}?limit=0`, all, 400),
    c("listAlertRules", "GET", list, bad, 401),
    c("listAlertRules", "GET", list, none, 403),
    c("createAlertRule", "POST", list, { ...all, "idempotency-key": "rule-once" }, 201, good),
    c("createAlertRule", "POST", list, { ...all, "idempotency-key": "rule-once" }, 422, {
      ...good,
      name: "other",
    }),
    c("createAlertRule", "POST", list, { ...all, "idempotency-key": "in-flight" }, 409, good),
    c("createAlertRule", "POST", list, all, 400, { ...good, routes: ["rt_nope"] }),
    c("createAlertRule", "POST", list, bad, 401, good),
    c("createAlertRule", "POST", list, none, 403, good),
    c("getAlertRule", "GET", one, all, 200),
    c("getAlertRule", "GET", `${list}/${"x".repeat(101)}`, all, 400),
    c("getAlertRule", "GET", one, bad, 401),
    c("getAlertRule", "GET", one, none, 403),
    c("getAlertRule", "GET", `${list}/rule_nope`, all, 404),
    c("updateAlertRule", "PATCH", one, all, 200, { enabled: false }),
    c("updateAlertRule", "PATCH", one, all, 400, { forMinutes: -1 }),
    c("updateAlertRule", "PATCH", one, bad, 401, { name: "x" }),
    c("updateAlertRule", "PATCH", one, none, 403, { name: "x" }),
    c("updateAlertRule", "PATCH", `${list}/rule_nope`, all, 404, { name: "x" }),
    c("updateAlertRule", "PATCH", one, { ...all, "if-match": '"v99"' }, 412, { name: "x" }),
    c("deleteAlertRule", "DELETE", one, { ...all, "if-match": "v1" }, 400),
    c("deleteAlertRule", "DELETE", one, bad, 401),
    c("deleteAlertRule", "DELETE", one, none, 403),
    c("deleteAlertRule", "DELETE", `${list}/rule_nope`, all, 404),
    c("deleteAlertRule", "DELETE", one, { ...all, "if-match": '"v99"' }, 412),
    c("deleteAlertRule", "DELETE", `${list}/${keys.doomedRule}`, all, 204),
  ];
}

/** Every status of the suggestion operations. */
function suggestionCases(
  all: Record<string, string>,
  bad: Record<string, string>,
  none: Record<string, string>,
): Case[] {
  const suggest = "/api/user/monitors/suggestions";
  const accept = `${suggest}/accept`;
  const files = { files: [{ name: "requirements.txt", content: "stripe==9.0\n" }] };
  const chosen = { monitors: [{ service: "stripe" }] };
  const post = (
    op: string,
    path: string,
    headers: Record<string, string>,
    body: unknown,
    status: number,
  ): Case => ({ op, method: "POST", path, headers, body, status });
  return [
    post("suggestMonitors", suggest, all, files, 200),
    post("suggestMonitors", suggest, all, { files: [{ name: "Gemfile", content: "x" }] }, 400),
    post("suggestMonitors", suggest, bad, files, 401),
    post("suggestMonitors", suggest, none, files, 403),
    post("acceptSuggestions", accept, { ...all, "idempotency-key": "accept-once" }, chosen, 201),
    post("acceptSuggestions", accept, { ...all, "idempotency-key": "accept-once" }, {
      monitors: [{ service: "github" }],
    }, 422),
    post("acceptSuggestions", accept, { ...all, "idempotency-key": "in-flight" }, chosen, 409),
    post("acceptSuggestions", accept, all, { monitors: [] }, 400),
    post("acceptSuggestions", accept, bad, chosen, 401),
    post("acceptSuggestions", accept, none, chosen, 403),
  ];
}

/** The same operations once the store has failed: each must answer a declared 500. */
function failureCases(keys: Record<string, string>): Case[] {
  const all = { "x-api-key": keys.all! };
  return [
    { op: "listServices", path: "/api/services?q=after", status: 500 },
    { op: "getService", path: "/api/services/stripe", status: 500 },
    { op: "getServiceHistory", path: "/api/services/stripe/history", status: 500 },
    { op: "getServiceUptime", path: "/api/services/stripe/uptime", status: 500 },
    { op: "listIncidents", path: "/api/incidents?service=stripe", status: 500 },
    { op: "getProvidersOverview", path: "/api/status/providers-overview?page=3", status: 500 },
    { op: "listApiKeys", path: "/api/user/api-keys", headers: all, status: 500 },
    { op: "listApiKeyScopes", path: "/api/user/api-keys/scopes", headers: all, status: 500 },
    { op: "getServiceSlaReport", path: "/api/user/services/stripe/sla", headers: all, status: 500 },
    { op: "listMaintenances", path: "/api/maintenances?service=stripe", status: 500 },
    { op: "getIncidentsRss", path: "/feed.rss?after", status: 500 },
    { op: "getIncidentsAtom", path: "/feed.atom?after", status: 500 },
    { op: "getServiceIncidentsRss", path: "/services/stripe/feed.rss", status: 500 },
    { op: "getBoardIncidentsRss", path: "/b/pro-stack/feed.rss?after", status: 500 },
    { op: "getBoardIncidentsAtom", path: "/b/pro-stack/feed.atom?after", status: 500 },
    { op: "getServiceIncidentsAtom", path: "/services/stripe/feed.atom", status: 500 },
    { op: "getMaintenanceCalendar", path: "/calendar.ics?service=stripe", status: 500 },
    { op: "getBoardMaintenanceCalendar", path: "/b/pro-stack/calendar.ics?again", status: 500 },
    { op: "listMonitors", path: "/api/user/monitors", headers: all, status: 500 },
    { op: "listReports", path: "/api/user/reports", headers: all, status: 500 },
    { op: "listAddedVendors", path: "/api/user/vendors", headers: all, status: 500 },
    { op: "lookupVendor", path: "/api/lookup?target=github.com", status: 500 },
    {
      op: "addVendor",
      method: "POST",
      path: "/api/user/vendors",
      headers: all,
      body: { statusPageUrl: "https://status.crisp.test" },
      status: 500,
    },
    {
      op: "removeAddedVendor",
      method: "DELETE",
      path: "/api/user/vendors/page-1",
      headers: all,
      status: 500,
    },
    {
      op: "reportTrouble",
      method: "POST",
      path: "/api/user/reports",
      headers: all,
      body: { service: "stripe" },
      status: 500,
    },
    ...["Group", "Board"].flatMap((op): Case[] => {
      const list = `/api/user/${op.toLowerCase()}s`;
      const one = `${list}/${keys[op.toLowerCase()]}`;
      return [
        { op: `list${op}s`, path: list, headers: all, status: 500 },
        {
          op: `create${op}`,
          method: "POST",
          path: list,
          headers: all,
          body: op === "Group" ? { name: "x" } : { slug: "later", title: "x" },
          status: 500,
        },
        { op: `get${op}`, path: one, headers: all, status: 500 },
        {
          op: `update${op}`,
          method: "PATCH",
          path: one,
          headers: all,
          body: op === "Group" ? { name: "y" } : { title: "y" },
          status: 500,
        },
        { op: `delete${op}`, method: "DELETE", path: one, headers: all, status: 500 },
      ];
    }),
    { op: "getPublicBoard", path: "/api/boards/pro-stack", status: 500 },
    {
      op: "createMonitor",
      method: "POST",
      path: "/api/user/monitors",
      headers: all,
      body: { service: "github" },
      status: 500,
    },
    { op: "getMonitor", path: `/api/user/monitors/${keys.monitor}`, headers: all, status: 500 },
    {
      op: "suggestMonitors",
      method: "POST",
      path: "/api/user/monitors/suggestions",
      headers: all,
      body: { domains: ["stripe.com"] },
      status: 500,
    },
    { op: "listAlertRoutes", path: "/api/user/alert-routes", headers: all, status: 500 },
    { op: "listAlertRules", path: "/api/user/alert-rules", headers: all, status: 500 },
    { op: "listSubscriptions", path: "/api/user/subscriptions", headers: all, status: 500 },
    {
      op: "createSubscription",
      method: "POST",
      path: "/api/user/subscriptions",
      headers: all,
      body: { target: { kind: "monitor", id: keys.monitor }, route: keys.route },
      status: 500,
    },
    {
      op: "getSubscription",
      path: `/api/user/subscriptions/${keys.subscription}`,
      headers: all,
      status: 500,
    },
    {
      op: "deleteSubscription",
      method: "DELETE",
      path: `/api/user/subscriptions/${keys.subscription}`,
      headers: all,
      status: 500,
    },
    {
      op: "listEscalationPolicies",
      path: "/api/user/escalation-policies",
      headers: all,
      status: 500,
    },
    {
      op: "createEscalationPolicy",
      method: "POST",
      path: "/api/user/escalation-policies",
      headers: all,
      body: { name: "p", steps: [{ routes: [keys.route], afterMinutes: 0 }] },
      status: 500,
    },
    {
      op: "getEscalationPolicy",
      path: `/api/user/escalation-policies/${keys.escalation}`,
      headers: all,
      status: 500,
    },
    {
      op: "updateEscalationPolicy",
      method: "PATCH",
      path: `/api/user/escalation-policies/${keys.escalation}`,
      headers: all,
      body: { name: "n" },
      status: 500,
    },
    {
      op: "deleteEscalationPolicy",
      method: "DELETE",
      path: `/api/user/escalation-policies/${keys.escalation}`,
      headers: all,
      status: 500,
    },
    {
      op: "acknowledgeAlertEvent",
      method: "POST",
      path: `/api/user/alert-events/${keys.event}/acknowledge`,
      headers: all,
      status: 500,
    },
    {
      op: "createAlertRule",
      method: "POST",
      path: "/api/user/alert-rules",
      headers: all,
      body: { name: "r", target: { kind: "all" }, routes: [keys.route] },
      status: 500,
    },
    { op: "getAlertRule", path: `/api/user/alert-rules/${keys.rule}`, headers: all, status: 500 },
    {
      op: "updateAlertRule",
      method: "PATCH",
      path: `/api/user/alert-rules/${keys.rule}`,
      headers: all,
      body: { name: "n" },
      status: 500,
    },
    {
      op: "deleteAlertRule",
      method: "DELETE",
      path: `/api/user/alert-rules/${keys.rule}`,
      headers: all,
      status: 500,
    },
    {
      op: "createAlertRoute",
      method: "POST",
      path: "/api/user/alert-routes",
      headers: all,
      body: { name: "n", settings: { kind: "teams", url: "https://teams.example/w" } },
      status: 500,
    },
    {
      op: "getAlertRoute",
      path: `/api/user/alert-routes/${keys.route}`,
      headers: all,
      status: 500,
    },
    {
      op: "updateAlertRoute",
      method: "PATCH",
      path: `/api/user/alert-routes/${keys.route}`,
      headers: all,
      body: { name: "n" },
      status: 500,
    },
    {
      op: "deleteAlertRoute",
      method: "DELETE",
      path: `/api/user/alert-routes/${keys.route}`,
      headers: all,
      status: 500,
    },
    {
      op: "testAlertRoute",
      method: "POST",
      path: `/api/user/alert-routes/${keys.route}/test`,
      headers: all,
      status: 500,
    },
    { op: "listAlertEvents", path: "/api/user/alert-events", headers: all, status: 500 },
    {
      op: "getAlertEvent",
      path: `/api/user/alert-events/${keys.event}`,
      headers: all,
      status: 500,
    },
    {
      op: "redeliverAlertEvent",
      method: "POST",
      path: `/api/user/alert-events/${keys.event}/redeliver`,
      headers: all,
      status: 500,
    },
    {
      op: "acceptSuggestions",
      method: "POST",
      path: "/api/user/monitors/suggestions/accept",
      headers: all,
      body: { monitors: [{ service: "github" }] },
      status: 500,
    },
    {
      op: "updateMonitor",
      method: "PATCH",
      path: `/api/user/monitors/${keys.monitor}`,
      headers: all,
      body: { paused: false },
      status: 500,
    },
    {
      op: "deleteMonitor",
      method: "DELETE",
      path: `/api/user/monitors/${keys.monitor}`,
      headers: all,
      status: 500,
    },
  ];
}

/** The validator for the body of `op`'s `status` answer in `type`, or null for non-JSON. */
function validatorFor(doc: OpenApiDoc, response: ResponseObject, type: string) {
  const schema = response.content?.[type]?.schema;
  if (!type.startsWith("application/json") || !schema) return null;
  // Both are CommonJS: the class and the plugin are their modules' `default`.
  const ajv = new ajv2020.default({ strict: false, allErrors: true });
  ajvFormats.default(ajv);
  // The document's components ride along so `#/components/schemas/…` references resolve.
  return ajv.compile({ ...schema, components: doc.components });
}

Deno.test("every live answer of every operation is declared in the OpenAPI document and matches its schema", async () => {
  const { r, keys } = await seeded();
  const exercised = new Set<string>();
  let doc: OpenApiDoc;
  const byId = new Map<string, Operation>();
  const check = async (c: Case) => {
    const headers = { ...c.headers };
    if (c.conditional) {
      const first = await r.app.request(`${PUBLIC_URL}${c.path}`);
      await first.body?.cancel();
      headers["if-none-match"] = first.headers.get("etag") ?? "";
    }
    if (c.body !== undefined) headers["content-type"] = "application/json";
    const res = await r.app.request(`${PUBLIC_URL}${c.path}`, {
      method: c.method ?? "GET",
      headers,
      body: c.body === undefined ? undefined : JSON.stringify(c.body),
    });
    const what = `${c.op} ${c.path} ${JSON.stringify(c.headers ?? {})}`;
    if (res.status !== c.status) {
      equal(res.status, c.status, `${what} answered ${res.status}: ${await res.text()}`);
    }
    const op = byId.get(c.op);
    ok(op, `${c.op} is in the document`);
    const declared = op.responses[String(res.status)];
    ok(declared, `${what}: status ${res.status} is declared`);
    const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
    ok(
      res.status === 304 || res.status === 204 ||
        Object.keys(declared.content ?? {}).includes(type),
      `${what}: content type ${type} is declared for ${res.status}`,
    );
    for (const header of Object.keys(declared.headers ?? {})) {
      ok(res.headers.has(header), `${what}: declared header ${header} is sent`);
    }
    const validate = res.status === 204 ? null : validatorFor(doc, declared, type);
    if (validate) {
      const body = await res.json();
      ok(
        validate(body),
        `${what}: body matches the ${res.status} schema: ${JSON.stringify(validate.errors)}`,
      );
    } else {
      await res.body?.cancel();
    }
    exercised.add(`${c.op} ${res.status}`);
  };
  try {
    doc = await (await r.get("/openapi.json")).json();
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) byId.set(op.operationId, op);
    }
    for (const c of cases(keys)) await check(c);
    // The store fails (here: closed) under every operation.
    await r.store.close();
    for (const c of failureCases(keys)) await check(c);

    const missing: string[] = [];
    for (const [id, op] of byId) {
      for (const status of Object.keys(op.responses)) {
        if (!exercised.has(`${id} ${status}`) && !NOT_PRODUCIBLE(id, Number(status))) {
          missing.push(`${id} ${status}`);
        }
      }
    }
    equal(
      missing.join(", "),
      "",
      `every declared status is produced by a live request; not produced: ${missing.join(", ")}`,
    );
  } finally {
    try {
      await r.close();
    } catch {
      // Closed above on purpose.
    }
  }
});

Deno.test("the document declares the Account tag, license, contact and what each scheme accepts", async () => {
  const r = apiRig();
  try {
    const doc = await (await r.get("/openapi.json")).json();
    const tags = new Set((doc.tags as { name: string }[]).map((t) => t.name));
    for (const item of Object.values(doc.paths as Record<string, Record<string, Operation>>)) {
      for (const op of Object.values(item) as { tags?: string[]; operationId: string }[]) {
        for (const tag of op.tags ?? []) {
          ok(tags.has(tag), `${op.operationId}: tag ${tag} declared`);
        }
      }
    }
    ok(tags.has("Account"));
    ok(doc.info.license?.name, "info.license");
    equal(doc.info.contact?.url, `${PUBLIC_URL}/`);
    const bearer = doc.components.securitySchemes.bearer.description as string;
    ok(bearer.includes("sd_live_"), bearer);
    ok(/OAuth access tokens .* only by the MCP server at \/api\/mcp/.test(bearer), bearer);
    ok(
      (doc.components.securitySchemes.apiKey.description as string).includes("X-API-Key"),
    );
    // What the text says is what the server does: an OAuth access token is refused here.
    const res = await r.get("/api/services", { authorization: "Bearer sd_oat_whatever" });
    equal(res.status, 401);
  } finally {
    await r.close();
  }
});
