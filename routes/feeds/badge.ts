/**
 * `/badge/{slug}.svg`: a service's current status as a shields.io-style SVG badge (made by
 * `badge-maker`, the library behind shields.io) to embed in a README or a wiki; `.json` (and
 * `/b/{slug}/badge.json` for a board) the same as a shields.io endpoint badge. Served from
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

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * Seconds shields.io may cache an endpoint badge (its own minimum is 300: a shorter value is
 * raised to it, so asking for it says what will happen).
 */
export const SHIELDS_CACHE_SECONDS = 300;

/**
 * A shields.io endpoint badge (https://shields.io/badges/endpoint-badge): `schemaVersion` 1, the
 * left text, the right text (never empty) and its colour; `isError` for "not found".
 */
export interface ShieldsEndpoint {
  readonly schemaVersion: 1;
  readonly label: string;
  readonly message: string;
  readonly color: string;
  readonly isError?: true;
  readonly cacheSeconds: number;
}

/** What a badge says for a slug nothing has. */
const NOT_FOUND_LOOK = { message: "not found", color: "lightgrey" } as const;

/** The endpoint JSON of a level (or of "not found" when `look` is null). */
export function shieldsEndpoint(
  label: string,
  look: { message: string; color: string } | null,
): ShieldsEndpoint {
  return look ? { schemaVersion: 1, label, ...look, cacheSeconds: SHIELDS_CACHE_SECONDS } : {
    schemaVersion: 1,
    label,
    ...NOT_FOUND_LOOK,
    isError: true,
    cacheSeconds: SHIELDS_CACHE_SECONDS,
  };
}

const ShieldsSchema = z.object({
  schemaVersion: z.literal(1),
  label: z.string(),
  message: z.string(),
  color: z.string(),
  isError: z.boolean().optional(),
  cacheSeconds: z.number().int(),
}).openapi("ShieldsEndpoint", {
  description: "A shields.io endpoint badge (https://shields.io/badges/endpoint-badge)",
});

/** The `label` override of a JSON badge. */
const LabelQuery = BadgeQuery.pick({ label: true });

/** A badge's query read by `schema`, or a 400 naming each bad parameter. */
function queryOf<T>(schema: z.ZodType<T>, query: Record<string, string>): T {
  const parsed = schema.safeParse(query);
  if (!parsed.success) {
    throw new InvalidRequest(parsed.error.issues.map((i) => ({
      parameter: i.path.map(String).join(".") || "query",
      message: i.message,
    })));
  }
  return parsed.data;
}

/** The public board `slug` (null when there is none: private, unknown or malformed). */
async function publicBoard(app: Parameters<typeof boardBySlug>[0], slug: string) {
  if (!SLUG.test(slug)) return null;
  try {
    return await boardBySlug(app, ANONYMOUS, slug);
  } catch (err) {
    if (err instanceof NotFound) return null;
    throw err;
  }
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
  const jsonResponses = (what: string) => ({
    200: {
      content: { "application/json": { schema: ShieldsSchema } },
      description: "The endpoint badge",
    },
    304: { description: "Not modified (the `If-None-Match` ETag still holds)" },
    400: {
      content: { "application/json": { schema: ErrorSchema } },
      description: "`invalid_request`: `label` is not acceptable",
    },
    404: {
      content: { "application/json": { schema: ShieldsSchema } },
      description: `A "not found" endpoint badge (\`isError\`): ${what}`,
    },
  });
  api.openAPIRegistry.registerPath({
    method: "get",
    path: "/badge/{slug}.json",
    operationId: "getServiceShieldsBadge",
    tags: ["Feeds"],
    summary: "Status of a service as a shields.io endpoint badge (JSON)",
    description:
      "The service's current status as shields.io endpoint JSON (`schemaVersion` 1, `label`, " +
      "`message`, `color`): `https://img.shields.io/endpoint?url=<this URL>` draws it in any " +
      "style shields offers. No credential needed.",
    request: {
      params: z.object({
        slug: z.string().openapi({ description: "Service identifier", example: "github" }),
      }),
      query: LabelQuery,
    },
    responses: jsonResponses("no service has this slug"),
    "x-required-scopes": [],
    security: [],
  });
  api.openAPIRegistry.registerPath({
    method: "get",
    path: "/b/{slug}/badge.json",
    operationId: "getBoardShieldsBadge",
    tags: ["Feeds"],
    summary: "Status of a public board as a shields.io endpoint badge (JSON)",
    description:
      "A public board's overall status (the worst of its entries) as shields.io endpoint JSON, " +
      "the board's title as its label. No credential needed.",
    request: {
      params: z.object({
        slug: z.string().openapi({ description: "Board slug", example: "acme-stack" }),
      }),
      query: LabelQuery,
    },
    responses: jsonResponses("no public board has this slug"),
    "x-required-scopes": [],
    security: [],
  });
  const json = (body: ShieldsEndpoint, status?: number) => ({
    body: JSON.stringify(body),
    contentType: JSON_TYPE,
    ...(status ? { status } : {}),
  });
  api.get("/b/:slug/badge.json", (c) => {
    const { label } = queryOf(LabelQuery, c.req.query());
    const slug = c.req.param("slug");
    return cache.send(c, async () => {
      const board = await publicBoard(c.get("app"), slug);
      return board
        ? json(shieldsEndpoint(label ?? board.title, BADGE_LOOK[board.currentStatus]))
        : json(shieldsEndpoint(label ?? "status", null), 404);
    }, headers);
  });
  api.get("/badge/:file{[^/]+\\.json}", (c) => {
    const { label } = queryOf(LabelQuery, c.req.query());
    const slug = c.req.param("file").slice(0, -".json".length);
    return cache.send(c, async () => {
      const service = SLUG.test(slug) ? await serviceStatusOf(c.get("app"), slug) : null;
      return service
        ? json(shieldsEndpoint(label ?? service.name, BADGE_LOOK[service.currentStatus]))
        : json(shieldsEndpoint(label ?? "status", null), 404);
    }, headers);
  });
  api.get("/badge/board/:file{[^/]+\\.svg}", (c) => {
    const { label, style } = queryOf(BadgeQuery, c.req.query());
    const slug = c.req.param("file").slice(0, -".svg".length);
    return cache.send(c, async () => {
      const board = await publicBoard(c.get("app"), slug);
      if (board) {
        return {
          body: await svgOf(label ?? board.title, BADGE_LOOK[board.currentStatus], style),
          contentType: SVG,
        };
      }
      return {
        body: await svgOf(label ?? "status", NOT_FOUND_LOOK, style),
        contentType: SVG,
        status: 404,
      };
    }, headers);
  });
  api.get("/badge/:file{[^/]+\\.svg}", (c) => {
    const { label, style } = queryOf(BadgeQuery, c.req.query());
    const slug = c.req.param("file").slice(0, -".svg".length);
    return cache.send(c, async () => {
      const service = SLUG.test(slug) ? await serviceStatusOf(c.get("app"), slug) : null;
      return service
        ? {
          body: await svgOf(label ?? service.name, BADGE_LOOK[service.currentStatus], style),
          contentType: SVG,
        }
        : {
          body: await svgOf(label ?? "status", NOT_FOUND_LOOK, style),
          contentType: SVG,
          status: 404,
        };
    }, headers);
  });
};
