/**
 * `/badge/{slug}.svg`: a service's current status as a shields.io-style SVG badge (made by
 * `badge-maker`, the library behind shields.io) to embed in a README or a wiki. Served from
 * the response cache with a short `max-age` and an `ETag`; an unknown slug answers a 404
 * *image* ("not found"), because an `<img>` shows an image and nothing else.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { boardBySlug, serviceStatusOf } from "../../app/mod.ts";
import { ANONYMOUS, InvalidRequest, NotFound, type StatusLevel } from "../../domain/mod.ts";
import { ErrorSchema } from "../errors.ts";
import type { Register } from "../register.ts";

/** Seconds a badge may be cached by browsers and image proxies. */
export const BADGE_MAX_AGE_SECONDS = 60;
/** Longest `label` accepted. */
export const BADGE_LABEL_MAX = 64;
/** Badge styles, as shields.io names them. */
export const BADGE_STYLES = ["flat", "flat-square", "plastic", "for-the-badge", "social"] as const;

/** The words and colour a badge shows for each level (UNKNOWN grey, unlike any level). */
export const BADGE_LOOK: Readonly<Record<StatusLevel, { message: string; color: string }>> = {
  OPERATIONAL: { message: "operational", color: "brightgreen" },
  UNDER_MAINTENANCE: { message: "maintenance", color: "blue" },
  DEGRADED_PERFORMANCE: { message: "degraded", color: "yellow" },
  PARTIAL_OUTAGE: { message: "partial outage", color: "orange" },
  MAJOR_OUTAGE: { message: "major outage", color: "red" },
  UNKNOWN: { message: "unknown", color: "lightgrey" },
};

const SVG = "image/svg+xml; charset=utf-8";
const SLUG = /^[a-z0-9][a-z0-9._-]{0,199}$/;

/** Query of a badge. */
export const BadgeQuery = z.object({
  label: z.string().max(BADGE_LABEL_MAX).optional().openapi({
    description: `Left-hand text instead of the service name (at most ${BADGE_LABEL_MAX} ` +
      "characters; empty for none)",
    example: "GitHub status",
  }),
  style: z.enum(BADGE_STYLES).default("flat").openapi({
    description: "Badge style, as on shields.io (default `flat`)",
    example: "flat-square",
  }),
});

/** The SVG; badge-maker is loaded with the first badge (a server that serves none never holds it). */
async function svgOf(
  label: string,
  look: { message: string; color: string },
  style: string,
): Promise<string> {
  const { makeBadge } = await import("badge-maker");
  return makeBadge(
    { label, message: look.message, color: look.color, style } as Parameters<
      typeof makeBadge
    >[0],
  );
}

/** Mounts the badge (and documents it in the OpenAPI document). */
export const registerBadges: Register = (api, deps) => {
  const cache = deps.responseCache;
  const headers = { "Cache-Control": `public, max-age=${BADGE_MAX_AGE_SECONDS}` };
  api.openAPIRegistry.registerPath({
    method: "get",
    path: "/badge/{slug}.svg",
    operationId: "getServiceBadge",
    tags: ["Feeds"],
    summary: "Status badge of a service (SVG)",
    description:
      "The service's current status as a shields.io-style SVG badge: the service name on the " +
      "left, the status in words on the right (operational, maintenance, degraded, partial " +
      "outage, major outage, unknown), coloured by level (UNKNOWN is grey). Embed it in " +
      "Markdown: `![GitHub status]({host_url}/badge/github.svg)`. Cached for " +
      `${BADGE_MAX_AGE_SECONDS} s with an \`ETag\` (\`If-None-Match\` gives 304). An unknown ` +
      'slug answers 404 with a grey "not found" badge image. No credential needed.',
    request: {
      params: z.object({
        slug: z.string().openapi({ description: "Service identifier", example: "github" }),
      }),
      query: BadgeQuery,
    },
    responses: {
      200: { content: { "image/svg+xml": { schema: z.string() } }, description: "The badge" },
      304: { description: "Not modified (the `If-None-Match` ETag still holds)" },
      400: {
        content: { "application/json": { schema: ErrorSchema } },
        description: "`invalid_request`: `style` or `label` is not acceptable",
      },
      404: {
        content: { "image/svg+xml": { schema: z.string() } },
        description: 'A "not found" badge: no service has this slug',
      },
    },
    "x-required-scopes": [],
    security: [],
  });
  api.openAPIRegistry.registerPath({
    method: "get",
    path: "/badge/board/{slug}.svg",
    operationId: "getBoardBadge",
    tags: ["Feeds"],
    summary: "Status badge of a public board (SVG)",
    description:
      "A public board's overall status (the worst of its entries) as a shields.io-style SVG " +
      'badge, the board\'s title on the left: embed "the status of everything we depend on" ' +
      "in a README. Cached like the service badge (`ETag`, `If-None-Match` gives 304). No " +
      'public board with this slug answers 404 with a grey "not found" badge. No credential.',
    request: {
      params: z.object({
        slug: z.string().openapi({ description: "Board slug", example: "acme-stack" }),
      }),
      query: BadgeQuery,
    },
    responses: {
      200: { content: { "image/svg+xml": { schema: z.string() } }, description: "The badge" },
      304: { description: "Not modified (the `If-None-Match` ETag still holds)" },
      400: {
        content: { "application/json": { schema: ErrorSchema } },
        description: "`invalid_request`: `style` or `label` is not acceptable",
      },
      404: {
        content: { "image/svg+xml": { schema: z.string() } },
        description: 'A "not found" badge: no public board has this slug',
      },
    },
    "x-required-scopes": [],
    security: [],
  });
  api.get("/badge/board/:file{[^/]+\\.svg}", (c) => {
    const query = BadgeQuery.safeParse(c.req.query());
    if (!query.success) {
      throw new InvalidRequest(query.error.issues.map((i) => ({
        parameter: i.path.map(String).join(".") || "query",
        message: i.message,
      })));
    }
    const { label, style } = query.data;
    const slug = c.req.param("file").slice(0, -".svg".length);
    return cache.send(c, async () => {
      try {
        const board = SLUG.test(slug) ? await boardBySlug(c.get("app"), ANONYMOUS, slug) : null;
        if (board) {
          return {
            body: await svgOf(label ?? board.title, BADGE_LOOK[board.currentStatus], style),
            contentType: SVG,
          };
        }
      } catch (err) {
        if (!(err instanceof NotFound)) throw err;
      }
      return {
        body: await svgOf(label ?? "status", { message: "not found", color: "lightgrey" }, style),
        contentType: SVG,
        status: 404,
      };
    }, headers);
  });
  api.get("/badge/:file{[^/]+\\.svg}", (c) => {
    const query = BadgeQuery.safeParse(c.req.query());
    if (!query.success) {
      throw new InvalidRequest(query.error.issues.map((i) => ({
        parameter: i.path.map(String).join(".") || "query",
        message: i.message,
      })));
    }
    const { label, style } = query.data;
    const slug = c.req.param("file").slice(0, -".svg".length);
    return cache.send(c, async () => {
      const service = SLUG.test(slug) ? await serviceStatusOf(c.get("app"), slug) : null;
      return service
        ? {
          body: await svgOf(label ?? service.name, BADGE_LOOK[service.currentStatus], style),
          contentType: SVG,
        }
        : {
          body: await svgOf(label ?? "status", { message: "not found", color: "lightgrey" }, style),
          contentType: SVG,
          status: 404,
        };
    }, headers);
  });
};
