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
  listSubscriptions,
  READ_MONITORS,
  type SubscriptionView,
  WRITE_SUBSCRIPTIONS,
} from "../../app/mod.ts";
import { toIso } from "../../domain/mod.ts";
import type { Register } from "../register.ts";
import { idParam, registerAccountDocApi } from "./account_doc_routes.ts";
import { pageSchema } from "./schemas.ts";

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

/** Mounts the subscriptions API. */
export const registerSubscriptionsApi: Register = (api) => {
  registerAccountDocApi(api, {
    path: PATH,
    tags,
    idParam: idParam(),
    schema: SubscriptionSchema,
    pageSchema: pageSchema(SubscriptionSchema, "SubscriptionPage", "subscriptions"),
    createBody: CreateBody,
    read: READ_MONITORS,
    write: WRITE_SUBSCRIPTIONS,
    list: {
      operationId: "listSubscriptions",
      summary: "The account's subscriptions",
      description: "The calling account's subscriptions, oldest first: what each follows, " +
        "where its messages go and whether the address has confirmed.",
      answer: "One page of subscriptions",
    },
    create: {
      operationId: "createSubscription",
      summary: "Follow a monitor, group or board",
      description: "Every status change, incident update and maintenance notice of the target " +
        "goes to `email` (a confirmation mail first; nothing else until its link is followed; " +
        "needs STATUSD_SMTP_URL) or to `route` (one of the account's alert routes, at once). " +
        "Every message carries a one-click unsubscribe link.",
    },
    get: {
      operationId: "getSubscription",
      summary: "One subscription",
      description: "One of the calling account's subscriptions with its state. Another " +
        "account's subscription is a 404.",
      answer: "The subscription",
      etag: false,
    },
    remove: {
      operationId: "deleteSubscription",
      summary: "Stop following",
      description: "Deletes the subscription (204); nothing more is sent on it. Another " +
        "account's subscription is a 404. With If-Match, a stale version is a 412.",
    },
    verbs: {
      list: listSubscriptions,
      create: createSubscription,
      get: getSubscription,
      remove: deleteSubscription,
    },
    json,
  });
};
