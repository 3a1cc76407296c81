/**
 * `/api/user/reports`: members report "not working for us" (statusd's early warning counts
 * them with its own probes), and list what their account reported.
 * @module
 */
import { z } from "@hono/zod-openapi";
import {
  listReports,
  READ_MONITORS,
  REPORT_NOTE_MAX,
  REPORT_TROUBLE,
  reportTrouble,
  type ReportView,
} from "../../app/mod.ts";
import type { Register } from "../register.ts";
import { defineRoute } from "./define.ts";
import { NO_STORE } from "./account_doc_routes.ts";

const ReportBody = z.object({
  service: z.string().openapi({ description: "The service's slug", example: "github" }),
  component: z.string().nullable().optional().openapi({
    description: "The component that is not working for you, if you know it",
    example: "API Requests",
  }),
  note: z.string().optional().openapi({
    description: `What you see, in a few words (at most ${REPORT_NOTE_MAX} characters)`,
    example: "502s from api.github.com since 10:02",
  }),
}).strict().openapi("ReportRequest");

/** A member's report. */
export const ReportSchema = z.object({
  id: z.string(),
  service: z.string().openapi({ example: "github" }),
  component: z.string().nullable(),
  note: z.string(),
  reporter: z.string().openapi({
    description: "Who reported: a person's email, `key <id>` or `app <client id>`",
  }),
  createdAt: z.string().openapi({ format: "date-time" }),
}).openapi("Report");

const tags = ["Monitors"];

const createReport = defineRoute({
  method: "post",
  path: "/api/user/reports",
  operationId: "reportTrouble",
  summary: "Report that a service is not working for you",
  description:
    "Kept 90 days (an account keeps its newest 500). statusd's early warning counts reports: two members (distinct " +
    "people, keys or apps of any account) within 30 minutes, or one while statusd's own probes " +
    "of the vendor see errors, make the vendor `suspected` (`earlyWarning` on the service), " +
    "never changing the vendor's own status. Any member may report; a key needs " +
    "`monitors:write`. An unknown service is a 404 with close slugs.",
  tags,
  request: {
    body: { content: { "application/json": { schema: ReportBody } }, required: true },
  },
  responses: {
    201: {
      description: "Stored",
      content: { "application/json": { schema: ReportSchema } },
    },
  },
}, REPORT_TROUBLE);

const listRoute = defineRoute({
  method: "get",
  path: "/api/user/reports",
  operationId: "listReports",
  summary: "Your account's reports, newest first",
  description: "The last 100 reports made by the account's members, keys and apps, newest " +
    "first, with who reported (kept 90 days, the newest 500).",
  tags,
  responses: {
    200: {
      description: "The reports",
      content: {
        "application/json": { schema: z.object({ content: z.array(ReportSchema) }) },
      },
    },
  },
}, READ_MONITORS);

const json = (r: ReportView) => ({ ...r });

/** Mounts the reports API. */
export const registerReportsApi: Register = (api) => {
  api.openapi(createReport, async (c) => {
    const r = await reportTrouble(c.get("app"), c.get("principal"), c.req.valid("json"));
    return c.json(json(r), 201, NO_STORE);
  });
  api.openapi(listRoute, async (c) => {
    const list = await listReports(c.get("app"), c.get("principal"));
    return c.json({ content: list.map(json) }, 200, NO_STORE);
  });
};
