/**
 * `/api/user/subscriptions`: follow a monitor, group or board on an email address
 * (double opt-in) or one of the account's alert routes, and stop following. Listing holds
 * `monitors:read`, changing `monitors:write`.
 * @module
 */
import { z } from "@hono/zod-openapi";
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  idempotentCreate,
  listSubscriptions,
  READ_MONITORS,
  type SubscriptionView,
  WRITE_SUBSCRIPTIONS,
} from "../../app/mod.ts";
import { toIso } from "../../domain/mod.ts";
import type { Register } from "../register.ts";
import { defineRoute } from "./define.ts";
import {
  createdResponse,
  IdempotencyHeader,
  idempotencyResponses,
  IfMatch,
  NO_STORE,
  stale,
  versionOf,
} from "./monitors.ts";
import { pageJson, PageQuery, pageSchema } from "./schemas.ts";

const PATH = "/api/user/subscriptions";
const tags = ["Monitors"];

const SubscriptionSchema = z.object({
  id: z.string().openapi({ example: "sub_k3v9q2xw8t4m" }),
  target: z.object({ kind: z.enum(["monitor", "group", "board"]), id: z.string() }),
  channel: z.object({
    kind: z.enum(["email", "route"]),
    email: z.string().optional(),
    routeId: z.string().optional(),
  }),
  state: z.enum(["pending_confirmation", "active", "unsubscribed"]).openapi({
    description: "An email subscription waits for its address to confirm before anything is sent",
  }),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).openapi("Subscription");

const CreateBody = z.object({
  target: z.object({ kind: z.enum(["monitor", "group", "board"]), id: z.string() }),
  email: z.string().optional().openapi({ description: "An address (gets a confirmation mail)" }),
  route: z.string().optional().openapi({ description: "Or one of the account's alert routes" }),
}).strict().openapi("SubscriptionCreate");

const IdParam = z.object({
  id: z.string().min(1).max(100).openapi({ param: { name: "id", in: "path" } }),
});

function json(s: SubscriptionView): z.infer<typeof SubscriptionSchema> {
  return {
    id: s.id,
    target: s.target,
    channel: s.channel.kind === "email"
      ? { kind: "email", email: s.channel.email }
      : { kind: "route", routeId: s.channel.routeId },
    state: s.state,
    version: s.version,
    createdAt: toIso(s.createdAt)!,
    updatedAt: toIso(s.updatedAt)!,
  };
}

const listDef = defineRoute({
  method: "get",
  path: PATH,
  operationId: "listSubscriptions",
  summary: "The account's subscriptions",
  description: "The calling account's subscriptions, oldest first: what each follows, where its " +
    "messages go and whether the address has confirmed.",
  tags,
  request: { query: z.object(PageQuery) },
  responses: {
    200: {
      description: "One page of subscriptions",
      content: {
        "application/json": {
          schema: pageSchema(SubscriptionSchema, "SubscriptionPage", "subscriptions"),
        },
      },
    },
  },
}, READ_MONITORS);

const createDef = defineRoute({
  method: "post",
  path: PATH,
  operationId: "createSubscription",
  summary: "Follow a monitor, group or board",
  description: "Every status change, incident update and maintenance notice of the target goes " +
    "to `email` (a confirmation mail first; nothing else until its link is followed; needs " +
    "STATUSD_SMTP_URL) or to `route` (one of the account's alert routes, at once). Every " +
    "message carries a one-click unsubscribe link.",
  tags,
  request: {
    headers: IdempotencyHeader,
    body: { content: { "application/json": { schema: CreateBody } }, required: true },
  },
  responses: {
    201: {
      description: "Created (or, for a retry with the same Idempotency-Key, the first answer)",
      headers: z.object({ Location: z.string(), ETag: z.string() }),
      content: { "application/json": { schema: SubscriptionSchema } },
    },
    ...idempotencyResponses,
  },
}, WRITE_SUBSCRIPTIONS);

const getDef = defineRoute({
  method: "get",
  path: `${PATH}/{id}`,
  operationId: "getSubscription",
  summary: "One subscription",
  description: "One of the calling account's subscriptions with its state. Another account's " +
    "subscription is a 404.",
  tags,
  request: { params: IdParam },
  responses: {
    200: {
      description: "The subscription",
      content: { "application/json": { schema: SubscriptionSchema } },
    },
  },
}, READ_MONITORS);

const deleteDef = defineRoute({
  method: "delete",
  path: `${PATH}/{id}`,
  operationId: "deleteSubscription",
  summary: "Stop following",
  description: "Deletes the subscription (204); nothing more is sent on it. Another account's " +
    "subscription is a 404. With If-Match, a stale version is a 412.",
  tags,
  request: { params: IdParam, headers: IfMatch },
  responses: { 204: { description: "Deleted" }, 412: stale },
}, WRITE_SUBSCRIPTIONS);

/** Mounts the subscriptions API. */
export const registerSubscriptionsApi: Register = (api) => {
  api.openapi(listDef, async (c) => {
    const { limit, page } = c.req.valid("query");
    const found = await listSubscriptions(c.get("app"), c.get("principal"), { limit, page });
    return c.json(pageJson(found, json), 200, NO_STORE);
  });
  api.openapi(createDef, async (c) => {
    const body = c.req.valid("json");
    const answer = await idempotentCreate(
      c.get("app"),
      c.get("principal"),
      c.req.valid("header")["idempotency-key"],
      "createSubscription",
      body,
      async () => {
        const made = await createSubscription(c.get("app"), c.get("principal"), body);
        return { status: 201, body: JSON.stringify(json(made)), location: `${PATH}/${made.id}` };
      },
    );
    return createdResponse(answer) as never;
  });
  api.openapi(getDef, async (c) => {
    const s = await getSubscription(c.get("app"), c.get("principal"), c.req.valid("param").id);
    return c.json(json(s), 200, NO_STORE);
  });
  api.openapi(deleteDef, async (c) => {
    await deleteSubscription(
      c.get("app"),
      c.get("principal"),
      c.req.valid("param").id,
      versionOf(c.req.valid("header")["if-match"]),
    );
    return c.body(null, 204);
  });
};
