/**
 * `createServer(deps)` builds the whole HTTP app (Hono) without listening, so tests can call
 * `app.request()` and main.ts can hand `app.fetch` to `Deno.serve`.
 * @module
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { boardHosts } from "../app/mod.ts";
import { InvalidRequest, NotFound } from "../domain/mod.ts";
import { createResponseCache } from "./api/cache.ts";
import type { Env } from "./env.ts";
import { errorBody, handleError, wantsHtml } from "./errors.ts";
import { errorPageResponse } from "./web/error_page.tsx";
import { registerFavicon } from "./web/favicon.ts";
import { principal } from "./middleware/principal.ts";
import { LIMITS, rateLimit } from "./middleware/rate_limit.ts";
import { limitBodies } from "./middleware/body_limit.ts";
import { clientAddressReader } from "./middleware/client_address.ts";
import { securityHeaders } from "./middleware/security_headers.ts";
import { boardHostRequest } from "./board_host.ts";
import { registerUserApi } from "./api/user.ts";
import { registerMonitorsApi } from "./api/monitors.ts";
import { registerSuggestionsApi } from "./api/suggestions.ts";
import { registerAlertsApi } from "./api/alerts.ts";
import { registerSubscriptionsApi } from "./api/subscriptions.ts";
import { registerReportsApi } from "./api/reports.ts";
import { registerVendorsApi } from "./api/vendors.ts";
import { registerLookupApi } from "./api/lookup.ts";
import { registerBoardsApi } from "./api/boards.ts";
import { registerAuthPages } from "./web/auth.tsx";
import { registerKeysPages } from "./web/settings_keys.tsx";
import { registerSettingsIndex } from "./web/settings_index.tsx";
import { registerMonitorsPages } from "./web/settings_monitors/mod.tsx";
import { registerAlertsPages } from "./web/settings_alerts/mod.tsx";
import { registerServices } from "./api/services.ts";
import { registerIncidents } from "./api/incidents.ts";
import { registerProviders } from "./api/providers.ts";
import { registerEvents } from "./api/events.ts";
import { registerOpenApi } from "./api/openapi.ts";
import { registerDiscovery } from "./discovery.ts";
import { registerHealth } from "./health.ts";
import { registerCatalogPages } from "./web/catalog.tsx";
import { registerBoardPages } from "./web/board_page.tsx";
import { registerMcp } from "./mcp/route.ts";
import { registerOAuth } from "./oauth/mod.ts";
import { registerMcpDiscovery } from "./discovery_mcp.ts";
import { registerMcpSettings } from "./web/settings_mcp.tsx";
import { registerAssets } from "./web/assets.ts";
import { registerMaintenances } from "./api/maintenances.ts";
import { registerFeeds } from "./feeds/mod.ts";
import { registerDocs } from "./web/docs.tsx";
import type { Register, ServerDeps } from "./register.ts";

export type { Register, RouterDeps, ServerDeps } from "./register.ts";
export { createResponseCache, type ResponseCache } from "./api/cache.ts";

/** Turns zod issues from request validation into an InvalidRequest naming each parameter. */
function validationHook(
  result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
): void {
  if (result.success || !result.error) return;
  throw new InvalidRequest(
    result.error.issues.map((i) => ({
      parameter: i.path.map(String).join(".") || "body",
      message: i.message,
    })),
  );
}

/** Routers, in mount order. Each file exports one `Register`. */
const ROUTERS: Register[] = [
  registerServices,
  registerIncidents,
  registerProviders,
  registerEvents,
  registerUserApi,
  registerSuggestionsApi,
  registerMonitorsApi,
  registerBoardsApi,
  registerAlertsApi,
  registerSubscriptionsApi,
  registerReportsApi,
  registerVendorsApi,
  registerLookupApi,
  registerAuthPages,
  registerKeysPages,
  registerSettingsIndex,
  registerMonitorsPages,
  registerAlertsPages,
  registerCatalogPages,
  registerBoardPages,
  registerDiscovery,
  registerHealth,
  registerOpenApi,
  registerMcp,
  registerOAuth,
  registerMcpDiscovery,
  registerMcpSettings,
  registerAssets,
  registerMaintenances,
  registerFeeds,
  registerDocs,
  registerFavicon,
];

/** Paths whose successful writes change what public board pages show. */
const LAYOUT_WRITES = /^\/(?:api\/user|settings)\/(?:monitors|groups|boards)(?:\/|$)/;

/** Builds the app for `deps`. */
export function createServer(deps: ServerDeps): OpenAPIHono<Env> {
  const api = new OpenAPIHono<Env>({ defaultHook: validationHook });
  const addressOf = clientAddressReader(deps.trustedProxies ?? []);
  const responseCache = deps.responseCache ?? createResponseCache(deps.app.store.changes);
  const hosts = boardHosts(deps.app);
  api.use("*", async function context(c, next) {
    c.set("app", deps.app);
    c.set("clientAddress", addressOf(c));
    c.set("responseCache", responseCache);
    await next();
    // Public board pages, feeds and badges are shared-cached; a write to what they show (a
    // board made private or deleted, a monitor renamed) drops the cache at once.
    if (
      c.req.method !== "GET" && c.req.method !== "HEAD" && c.res.status < 400 &&
      LAYOUT_WRITES.test(new URL(c.req.url).pathname)
    ) {
      responseCache.clear();
      hosts.forget();
    }
  });
  api.use("*", securityHeaders(deps.app.settings.publicUrl));
  api.use("*", limitBodies);
  api.use("/api/*", principal);
  api.use("/sign-in", rateLimit(LIMITS.signIn));
  api.use("/sign-up", rateLimit(LIMITS.signUp));
  api.use("/b/:slug/subscribe", rateLimit(LIMITS.boardSubscribe));
  api.onError(handleError(deps.app.log));
  api.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    if (wantsHtml(c)) return errorPageResponse(c, new NotFound("page", path));
    const { body } = errorBody(new NotFound("route", `${c.req.method} ${path}`));
    return c.json(body, 404);
  });
  api.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "An API key (`sd_live_…`) created in Settings > API Keys or with " +
      "`statusd admin create-key`, sent as `X-API-Key: <key>`",
  });
  api.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "The same API key (`sd_live_…`) sent as `Authorization: Bearer <key>`. OAuth " +
      "access tokens issued by statusd are accepted only by the MCP server at /api/mcp; this " +
      "API answers them with 401.",
  });
  for (const register of ROUTERS) register(api, { ...deps, responseCache });
  // A public board's own host is served that board (routes/board_host.ts).
  const ownHost = new URL(deps.app.settings.publicUrl).hostname.toLowerCase();
  // Anonymous reads of cached public answers are replayed before routing (routes/api/cache.ts).
  const dispatch = api.fetch;
  api.fetch = async (req, ...rest) => {
    const replayed = responseCache.replay(req);
    if (replayed) return replayed;
    const dispatched = await boardHostRequest(req, ownHost, hosts.slugOf);
    return await responseCache.remember(req, dispatched, await dispatch(dispatched, ...rest));
  };
  return api;
}
