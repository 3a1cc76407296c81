/**
 * `/api/user/vendors`: status pages an account adds by URL (#47). statusd reads the page once
 * (its platform, name and components) through the same guard as the poller; the account can
 * then monitor it like any catalog vendor. Reads hold `monitors:read`, changes `monitors:write`.
 * @module
 */
import { z } from "@hono/zod-openapi";
import {
  ADDED_VENDOR_LIMIT,
  addVendorByUrl,
  FREE_ADDED_VENDOR_LIMIT,
  listAddedVendors,
  READ_MONITORS,
  removeAddedVendor,
  WRITE_MONITORS,
} from "../../app/mod.ts";
import { ErrorSchema } from "../errors.ts";
import type { Register } from "../register.ts";
import { NO_STORE } from "./account_doc_routes.ts";
import { defineRoute } from "./define.ts";
import {
  addedVendorJson,
  addedVendorRowJson,
  AddedVendorRowSchema,
  AddedVendorSchema,
} from "./schemas.ts";

const PATH = "/api/user/vendors";
const tags = ["Monitors"];

const AddBody = z.object({
  statusPageUrl: z.string().openapi({
    description: "The status page's address, as you open it in a browser",
    example: "https://status.crisp.chat",
  }),
}).strict().openapi("AddVendorRequest");

const SlugParam = z.object({
  slug: z.string().min(1).max(100).openapi({
    param: { name: "slug", in: "path" },
    example: "crisp",
  }),
});

const addRoute = defineRoute({
  method: "post",
  path: PATH,
  operationId: "addVendor",
  summary: "Add a status page by its URL",
  description: "statusd fetches the page once (the same address rules, size and time caps as " +
    "its poller), detects its platform, reads it and answers the vendor: its slug, the name " +
    "the page gives itself, its platform and components. Monitor it then like any catalog " +
    "vendor (`POST /api/user/monitors`). A page another account added is the same vendor, " +
    "polled once (201); one statusd lists already answers 200 with that vendor, adding " +
    "nothing. A page statusd cannot read is a 422 `page_unreadable` whose `reason` says why " +
    "(`unreachable`, `refused_address`, `not_a_status_page`, `unsupported`, `unreadable`). A " +
    `FREE account adds up to ${FREE_ADDED_VENDOR_LIMIT} pages (403 \`plan_required\` past ` +
    `that), others up to ${ADDED_VENDOR_LIMIT} (409).`,
  tags,
  request: { body: { content: { "application/json": { schema: AddBody } }, required: true } },
  responses: {
    200: {
      description: "The page is a vendor statusd lists already: nothing was added",
      content: { "application/json": { schema: AddedVendorSchema } },
    },
    201: {
      description: "Added to your account",
      content: { "application/json": { schema: AddedVendorSchema } },
    },
    409: {
      description: "`conflict`: the account has added as many pages as it may",
      content: { "application/json": { schema: ErrorSchema } },
    },
    422: {
      description: "`page_unreadable`: statusd could not read the page; `reason` says why",
      content: { "application/json": { schema: ErrorSchema } },
    },
  },
}, WRITE_MONITORS);

const listRoute = defineRoute({
  method: "get",
  path: PATH,
  operationId: "listAddedVendors",
  summary: "The status pages your account added",
  description: "Most recently added first, each with how many accounts have added it.",
  tags,
  responses: {
    200: {
      description: "The account's added pages",
      content: {
        "application/json": { schema: z.object({ content: z.array(AddedVendorRowSchema) }) },
      },
    },
  },
}, READ_MONITORS);

const removeRoute = defineRoute({
  method: "delete",
  path: `${PATH}/{slug}`,
  operationId: "removeAddedVendor",
  summary: "Remove a status page your account added",
  description: "The page leaves your account's list (your monitors of it are kept). Once no " +
    "account has it, statusd stops reading it; its history is kept. 404 when your account did " +
    "not add it.",
  tags,
  request: { params: SlugParam },
  responses: { 204: { description: "Removed" } },
}, WRITE_MONITORS);

/** Mounts the added-vendors API. */
export const registerVendorsApi: Register = (api) => {
  api.openapi(addRoute, async (c) => {
    const { created, vendor } = await addVendorByUrl(
      c.get("app"),
      c.get("principal"),
      c.req.valid("json"),
    );
    return c.json(addedVendorJson(vendor), created ? 201 : 200, NO_STORE);
  });
  api.openapi(listRoute, async (c) => {
    const list = await listAddedVendors(c.get("app"), c.get("principal"));
    return c.json({ content: list.map(addedVendorRowJson) }, 200, NO_STORE);
  });
  api.openapi(removeRoute, async (c) => {
    await removeAddedVendor(c.get("app"), c.get("principal"), c.req.valid("param").slug);
    return c.body(null, 204, NO_STORE);
  });
};
