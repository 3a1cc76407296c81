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
  createBoard,
  createGroup,
  deleteBoard,
  deleteGroup,
  getBoard,
  getGroup,
  listBoards,
  listGroups,
  OPEN,
  READ_MONITORS,
  updateBoard,
  updateGroup,
  WRITE_MONITORS,
} from "../../app/mod.ts";
import type { Register } from "../register.ts";
import { idParam, registerAccountDocApi } from "./account_doc_routes.ts";
import { defineRoute } from "./define.ts";
import { boardJson, BoardSchema, groupJson, GroupSchema, pageSchema } from "./schemas.ts";

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
  earlyWarning: z.boolean().optional().openapi({
    description: "Show statusd's own public early warnings of its vendors on its status page " +
      "(vendor names and statusd's public evidence only; off unless turned on)",
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

const SlugParam = z.object({
  slug: z.string().min(1).max(100).openapi({
    param: { name: "slug", in: "path" },
    example: "acme-stack",
  }),
});

/** The words of a group's or a board's routes, from its name and what a reading shows. */
function words(noun: string, plural: string, op: string, what: string) {
  return {
    path: `/api/user/${plural}`,
    tags: ["Monitors"],
    idParam: idParam(),
    read: READ_MONITORS,
    write: WRITE_MONITORS,
    list: {
      operationId: `list${op}s`,
      summary: `The account's ${plural}`,
      description: `The calling account's ${plural}, oldest first, each with ${what}.`,
      answer: `One page of ${plural}`,
    },
    create: {
      operationId: `create${op}`,
      summary: `Create a ${noun}`,
      description: `Creates a ${noun} of the calling account (201 with Location and ETag). ` +
        "Ids of monitors or groups the account does not have are a 400 naming the field.",
    },
    get: {
      operationId: `get${op}`,
      summary: `One ${noun}`,
      description: `One of the calling account's ${plural}, with ${what}. Its ETag is its ` +
        "configuration version; another account's is a 404.",
      answer: `The ${noun}`,
    },
    update: {
      operationId: `update${op}`,
      summary: `Change a ${noun} (fields given only)`,
      description: `Changes the fields given. With If-Match, a ${noun} changed since that ` +
        "ETag is refused with 412 `precondition_failed` and stays as it was.",
      answer: `The changed ${noun}`,
    },
    remove: {
      operationId: `delete${op}`,
      summary: `Delete a ${noun}`,
      description: `Deletes the ${noun} (204); the monitors in it stay. With If-Match, one ` +
        "changed since that ETag is refused with 412.",
    },
  };
}

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
  registerAccountDocApi(api, {
    ...words("group", "groups", "Group", "its monitors and the worst of their levels"),
    schema: GroupSchema,
    pageSchema: pageSchema(GroupSchema, "GroupPage", "groups"),
    createBody: GroupCreate,
    patchBody: GroupPatch,
    verbs: {
      list: listGroups,
      create: createGroup,
      get: getGroup,
      update: updateGroup,
      remove: deleteGroup,
    },
    json: groupJson,
  });
  registerAccountDocApi(api, {
    ...words(
      "board",
      "boards",
      "Board",
      "its entries' levels, 90-day daily history and open incidents",
    ),
    schema: BoardSchema,
    pageSchema: pageSchema(BoardSchema, "BoardPage", "boards"),
    createBody: BoardCreate,
    patchBody: BoardPatch,
    verbs: {
      list: listBoards,
      create: createBoard,
      get: getBoard,
      update: updateBoard,
      remove: deleteBoard,
    },
    json: boardJson,
  });
  api.openapi(publicBoardRoute, async (c) => {
    const b = await boardBySlug(c.get("app"), c.get("principal"), c.req.valid("param").slug);
    return c.json(boardJson(b, c.get("app").clock.now()), 200, {
      "Cache-Control": b.public ? "public, max-age=30" : "no-store",
    });
  });
};
