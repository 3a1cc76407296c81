/**
 * `/api/user/groups` and `/api/user/boards`: named sets of monitors and ordered,
 * optionally public layouts of groups and monitors; and `/api/boards/{slug}`, a board read by
 * its public address (open for a public board; a private one is a 404 to others). Same
 * conventions as `/api/user/monitors`: `monitors:read` / `monitors:write`, `ETag` + `If-Match`.
 * @module
 */
import { z } from "@hono/zod-openapi";
import {
  boardBySlug,
  type BoardView,
  createBoard,
  createGroup,
  deleteBoard,
  deleteGroup,
  getBoard,
  getGroup,
  type GroupView,
  idempotentCreate,
  listBoards,
  listGroups,
  OPEN,
  READ_MONITORS,
  updateBoard,
  updateGroup,
  WRITE_MONITORS,
} from "../../app/mod.ts";
import { type EpochMs, toIso } from "../../domain/mod.ts";
import type { Register } from "../register.ts";
import { defineRoute } from "./define.ts";
import {
  createdResponse,
  etagHeader,
  IdempotencyHeader,
  idempotencyResponses,
  IfMatch,
  monitorJson,
  MonitorSchema,
  NO_STORE,
  stale,
  versionOf,
} from "./monitors.ts";
import {
  incidentJson,
  IncidentSchema,
  pageJson,
  PageQuery,
  pageSchema,
  StatusLevelSchema,
} from "./schemas.ts";

const GroupSchema = z.object({
  id: z.string().openapi({ example: "grp_q8w2e4r6t8y0" }),
  name: z.string().openapi({ example: "payments path" }),
  currentStatus: StatusLevelSchema.openapi({ description: "The worst level of its monitors" }),
  monitors: z.array(MonitorSchema).openapi({ description: "Its monitors, in order" }),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).openapi("Group");

const DaySchema = z.object({
  date: z.string().openapi({ example: "2026-11-20" }),
  worstStatus: StatusLevelSchema,
});

const EntrySchema = z.object({
  kind: z.enum(["group", "monitor"]),
  id: z.string(),
  name: z.string(),
  currentStatus: StatusLevelSchema,
  history: z.array(DaySchema).openapi({ description: "Worst level per UTC day, 90 days" }),
  openIncidents: z.array(IncidentSchema),
  monitors: z.array(MonitorSchema).openapi({ description: "For a group: its monitors" }),
  services: z.array(z.string()).openapi({
    description: "Slugs of the services the entry watches",
  }),
}).openapi("BoardEntry");

const BoardSchema = z.object({
  id: z.string().openapi({ example: "brd_a1s2d3f4g5h6" }),
  slug: z.string().openapi({ example: "acme-stack" }),
  title: z.string(),
  public: z.boolean().openapi({ description: "Readable by anyone at /b/{slug}" }),
  url: z.string().openapi({ description: "Its page, /b/{slug}" }),
  description: z.string().nullable().openapi({
    description: "What its status page says under the title",
  }),
  accentColor: z.string().nullable().openapi({
    description: "Its status page's accent colour, #rrggbb",
    example: "#0b5cad",
  }),
  links: z.array(z.object({ label: z.string(), url: z.string() })).openapi({
    description: "Links its status page shows (at most 5)",
  }),
  host: z.string().nullable().openapi({
    description: "A host of its own: requests for it are served this board's status page",
    example: "status.example.com",
  }),
  logoUrl: z.string().nullable().openapi({
    description: "Where its logo is served (/b/{slug}/logo), or null without one",
  }),
  currentStatus: StatusLevelSchema.openapi({ description: "The worst level of its entries" }),
  items: z.array(z.object({ kind: z.enum(["group", "monitor"]), id: z.string() })),
  entries: z.array(EntrySchema),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).openapi("Board");

const ItemBody = z.object({ kind: z.enum(["group", "monitor"]), id: z.string() }).strict();
const GroupCreate = z.object({
  name: z.string(),
  monitors: z.array(z.string()).optional(),
}).strict().openapi("GroupCreate");
const GroupPatch = z.object({
  name: z.string().optional(),
  monitors: z.array(z.string()).optional(),
}).strict().openapi("GroupPatch");
/** What a board's status page shows, in a create or a PATCH (absent: unchanged). */
const PAGE_FIELDS = {
  description: z.string().nullable().optional().openapi({
    description: "Shown under the title on its status page (at most 1,000 characters)",
  }),
  accentColor: z.string().nullable().optional().openapi({
    description: "The status page's accent colour, #rrggbb",
    example: "#0b5cad",
  }),
  links: z.array(z.object({ label: z.string(), url: z.string() }).strict()).optional().openapi({
    description: "At most 5 links for the status page: {label, url} (http or https)",
  }),
  host: z.string().nullable().optional().openapi({
    description: "A host of its own (status.example.com) whose DNS points at this statusd: " +
      "requests for it get this board at / with its feeds, and nothing else of statusd. A " +
      "private board's host answers 404.",
    example: "status.example.com",
  }),
  logo: z.string().nullable().optional().openapi({
    description: "Its logo as a data: URL of a PNG, JPEG or WebP image, at most 100 KB " +
      "(data:image/png;base64,…); the bytes must be of the type named. null removes it.",
  }),
};
const BoardCreate = z.object({
  slug: z.string().openapi({ example: "acme-stack" }),
  title: z.string(),
  public: z.boolean().optional(),
  items: z.array(ItemBody).optional(),
  ...PAGE_FIELDS,
}).strict().openapi("BoardCreate");
const BoardPatch = z.object({
  slug: z.string().optional(),
  title: z.string().optional(),
  public: z.boolean().optional(),
  items: z.array(ItemBody).optional(),
  ...PAGE_FIELDS,
}).strict().openapi("BoardPatch");

const IdParam = z.object({
  id: z.string().min(1).max(100).openapi({ param: { name: "id", in: "path" } }),
});
const SlugParam = z.object({
  slug: z.string().min(1).max(100).openapi({
    param: { name: "slug", in: "path" },
    example: "acme-stack",
  }),
});

function groupJson(g: GroupView, now: EpochMs): z.infer<typeof GroupSchema> {
  return {
    id: g.id,
    name: g.name,
    currentStatus: g.currentStatus,
    monitors: g.monitors.map((m) => monitorJson(m, now)),
    version: g.version,
    createdAt: toIso(g.createdAt)!,
    updatedAt: toIso(g.updatedAt)!,
  };
}

function boardJson(b: BoardView, now: EpochMs): z.infer<typeof BoardSchema> {
  return {
    id: b.id,
    slug: b.slug,
    title: b.title,
    public: b.public,
    url: `/b/${b.slug}`,
    description: b.description,
    accentColor: b.accentColor,
    links: b.links.map((l) => ({ label: l.label, url: l.url })),
    host: b.host,
    logoUrl: b.logo ? `/b/${b.slug}/logo` : null,
    currentStatus: b.currentStatus,
    items: b.items.map((i) => ({ kind: i.kind, id: i.id })),
    entries: b.entries.map((e) => ({
      kind: e.kind,
      id: e.id,
      name: e.name,
      currentStatus: e.currentStatus,
      history: e.history.map((d) => ({
        date: toIso(d.day)!.slice(0, 10),
        worstStatus: d.worstStatus,
      })),
      openIncidents: e.openIncidents.map((i) => incidentJson(i, now)),
      monitors: e.monitors.map((m) => monitorJson(m, now)),
      services: [...e.services],
    })),
    version: b.version,
    createdAt: toIso(b.createdAt)!,
    updatedAt: toIso(b.updatedAt)!,
  };
}

const etag = (r: { version: number }) => `"v${r.version}"`;

/** The five routes of one account resource. */
function crud<S extends z.ZodType, C extends z.ZodType, P extends z.ZodType>(o: {
  noun: string;
  plural: string;
  op: string;
  schema: S;
  create: C;
  patch: P;
  what: string;
}) {
  const path = `/api/user/${o.plural}`;
  const tags = ["Monitors"];
  const json = (schema: z.ZodType) => ({ "application/json": { schema } });
  return {
    list: defineRoute({
      method: "get",
      path,
      operationId: `list${o.op}s`,
      summary: `The account's ${o.plural}`,
      description: `The calling account's ${o.plural}, oldest first, each with ${o.what}.`,
      tags,
      request: { query: z.object(PageQuery) },
      responses: {
        200: {
          description: `One page of ${o.plural}`,
          content: json(pageSchema(o.schema, `${o.op}Page`, o.plural)),
        },
      },
    }, READ_MONITORS),
    create: defineRoute({
      method: "post",
      path,
      operationId: `create${o.op}`,
      summary: `Create a ${o.noun}`,
      description: `Creates a ${o.noun} of the calling account (201 with Location and ETag). ` +
        "Ids of monitors or groups the account does not have are a 400 naming the field.",
      tags,
      request: { headers: IdempotencyHeader, body: { content: json(o.create), required: true } },
      responses: {
        201: {
          description: "Created (or, for a retry with the same Idempotency-Key, the first answer)",
          headers: z.object({ Location: z.string(), ETag: z.string() }),
          content: json(o.schema),
        },
        ...idempotencyResponses,
      },
    }, WRITE_MONITORS),
    get: defineRoute({
      method: "get",
      path: `${path}/{id}`,
      operationId: `get${o.op}`,
      summary: `One ${o.noun}`,
      description: `One of the calling account's ${o.plural}, with ${o.what}. Its ETag is its ` +
        "configuration version; another account's is a 404.",
      tags,
      request: { params: IdParam },
      responses: {
        200: { description: `The ${o.noun}`, headers: etagHeader, content: json(o.schema) },
      },
    }, READ_MONITORS),
    patch: defineRoute({
      method: "patch",
      path: `${path}/{id}`,
      operationId: `update${o.op}`,
      summary: `Change a ${o.noun} (fields given only)`,
      description: `Changes the fields given. With If-Match, a ${o.noun} changed since that ` +
        "ETag is refused with 412 `precondition_failed` and stays as it was.",
      tags,
      request: {
        params: IdParam,
        headers: IfMatch,
        body: { content: json(o.patch), required: true },
      },
      responses: {
        200: { description: `The changed ${o.noun}`, headers: etagHeader, content: json(o.schema) },
        412: stale,
      },
    }, WRITE_MONITORS),
    delete: defineRoute({
      method: "delete",
      path: `${path}/{id}`,
      operationId: `delete${o.op}`,
      summary: `Delete a ${o.noun}`,
      description: `Deletes the ${o.noun} (204); the monitors in it stay. With If-Match, one ` +
        "changed since that ETag is refused with 412.",
      tags,
      request: { params: IdParam, headers: IfMatch },
      responses: { 204: { description: "Deleted" }, 412: stale },
    }, WRITE_MONITORS),
  };
}

const groups = crud({
  noun: "group",
  plural: "groups",
  op: "Group",
  schema: GroupSchema,
  create: GroupCreate,
  patch: GroupPatch,
  what: "its monitors and the worst of their levels",
});
const boards = crud({
  noun: "board",
  plural: "boards",
  op: "Board",
  schema: BoardSchema,
  create: BoardCreate,
  patch: BoardPatch,
  what: "its entries' levels, 90-day daily history and open incidents",
});

const publicBoardRoute = defineRoute({
  method: "get",
  path: "/api/boards/{slug}",
  operationId: "getPublicBoard",
  summary: "A board by its public address",
  description: "A public board, readable by anyone (no key): each entry's level now, its worst " +
    "level per UTC day over 90 days and its open incidents. A private board is a 404 except " +
    "to its own account's keys holding `monitors:read`.",
  tags: ["Monitors"],
  request: { params: SlugParam },
  responses: {
    200: { description: "The board", content: { "application/json": { schema: BoardSchema } } },
  },
}, OPEN);

/** Mounts the groups, boards and public board routes. */
export const registerBoardsApi: Register = (api) => {
  api.openapi(groups.list, async (c) => {
    const { limit, page } = c.req.valid("query");
    const found = await listGroups(c.get("app"), c.get("principal"), { limit, page });
    return c.json(pageJson(found, (g) => groupJson(g, c.get("app").clock.now())), 200, NO_STORE);
  });
  api.openapi(groups.create, async (c) => {
    const body = c.req.valid("json");
    const answer = await idempotentCreate(
      c.get("app"),
      c.get("principal"),
      c.req.valid("header")["idempotency-key"],
      "createGroup",
      body,
      async () => {
        const g = await createGroup(c.get("app"), c.get("principal"), body);
        return {
          status: 201,
          body: JSON.stringify(groupJson(g, c.get("app").clock.now())),
          location: `/api/user/groups/${g.id}`,
        };
      },
    );
    return createdResponse(answer) as never;
  });
  api.openapi(groups.get, async (c) => {
    const g = await getGroup(c.get("app"), c.get("principal"), c.req.valid("param").id);
    return c.json(groupJson(g, c.get("app").clock.now()), 200, { ...NO_STORE, ETag: etag(g) });
  });
  api.openapi(groups.patch, async (c) => {
    const g = await updateGroup(
      c.get("app"),
      c.get("principal"),
      c.req.valid("param").id,
      c.req.valid("json"),
      versionOf(c.req.valid("header")["if-match"]),
    );
    return c.json(groupJson(g, c.get("app").clock.now()), 200, { ...NO_STORE, ETag: etag(g) });
  });
  api.openapi(groups.delete, async (c) => {
    await deleteGroup(
      c.get("app"),
      c.get("principal"),
      c.req.valid("param").id,
      versionOf(c.req.valid("header")["if-match"]),
    );
    return c.body(null, 204);
  });
  api.openapi(boards.list, async (c) => {
    const { limit, page } = c.req.valid("query");
    const found = await listBoards(c.get("app"), c.get("principal"), { limit, page });
    return c.json(pageJson(found, (b) => boardJson(b, c.get("app").clock.now())), 200, NO_STORE);
  });
  api.openapi(boards.create, async (c) => {
    const body = c.req.valid("json");
    const answer = await idempotentCreate(
      c.get("app"),
      c.get("principal"),
      c.req.valid("header")["idempotency-key"],
      "createBoard",
      body,
      async () => {
        const b = await createBoard(c.get("app"), c.get("principal"), body);
        return {
          status: 201,
          body: JSON.stringify(boardJson(b, c.get("app").clock.now())),
          location: `/api/user/boards/${b.id}`,
        };
      },
    );
    return createdResponse(answer) as never;
  });
  api.openapi(boards.get, async (c) => {
    const b = await getBoard(c.get("app"), c.get("principal"), c.req.valid("param").id);
    return c.json(boardJson(b, c.get("app").clock.now()), 200, { ...NO_STORE, ETag: etag(b) });
  });
  api.openapi(boards.patch, async (c) => {
    const b = await updateBoard(
      c.get("app"),
      c.get("principal"),
      c.req.valid("param").id,
      c.req.valid("json"),
      versionOf(c.req.valid("header")["if-match"]),
    );
    return c.json(boardJson(b, c.get("app").clock.now()), 200, { ...NO_STORE, ETag: etag(b) });
  });
  api.openapi(boards.delete, async (c) => {
    await deleteBoard(
      c.get("app"),
      c.get("principal"),
      c.req.valid("param").id,
      versionOf(c.req.valid("header")["if-match"]),
    );
    return c.body(null, 204);
  });
  api.openapi(publicBoardRoute, async (c) => {
    const b = await boardBySlug(c.get("app"), c.get("principal"), c.req.valid("param").slug);
    return c.json(boardJson(b, c.get("app").clock.now()), 200, {
      "Cache-Control": b.public ? "public, max-age=30" : "no-store",
    });
  });
};
