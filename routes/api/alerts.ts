/**
 * `/api/user/alert-routes` and `/api/user/alert-events`: an account's alert
 * destinations (webhook, Slack, Discord, Teams, email, PagerDuty) with "send test", and every
 * delivered alert event with its attempts and a redeliver action. Reads hold `alerts:read`,
 * changes `alerts:write`; versions, `If-Match` and `Idempotency-Key` as for monitors.
 * @module
 */
import { z } from "@hono/zod-openapi";
import {
  acknowledgeEvent,
  createEscalation,
  createRoute,
  createRule,
  deleteEscalation,
  deleteRoute,
  deleteRule,
  getDelivery,
  getEscalation,
  getRoute,
  getRule,
  listDeliveries,
  listEscalations,
  listRoutes,
  listRules,
  READ_ALERTS,
  redeliver,
  type RouteView,
  sendTest,
  updateEscalation,
  updateRoute,
  updateRule,
  WRITE_ALERTS,
} from "../../app/mod.ts";
import {
  CHANNEL_KINDS,
  type EscalationRecord,
  type RuleRecord,
  STATUS_LEVELS,
  toIso,
} from "../../domain/mod.ts";
import type { Register } from "../register.ts";
import { defineRoute } from "./define.ts";
import { idParam, NO_STORE, registerAccountDocApi } from "./account_doc_routes.ts";
import { eventJson, EventSchema, pageJson, PageQuery, pageSchema } from "./schemas.ts";

const RouteSchema = z.object({
  id: z.string().openapi({ example: "rt_k3v9q2xw8t4m" }),
  name: z.string().openapi({ example: "On-call Slack" }),
  kind: z.enum(CHANNEL_KINDS),
  destination: z.string().openapi({
    description: "Where it sends, secrets masked",
    example: "https://hooks.slack.com/•••",
  }),
  paused: z.object({ since: z.string(), reason: z.string() }).nullable().openapi({
    description: 'Set when deliveries kept failing; PATCH `{"paused": false}` resumes it',
  }),
  failuresInARow: z.number().int(),
  recipients: z.array(z.object({
    address: z.string(),
    state: z.enum(["confirmed", "pending", "suppressed"]),
  })).optional().openapi({
    description: "An email route's addresses: each gets the route's mail only once `confirmed` " +
      "(statusd mails each address a link to confirm, at most 3 a day); `pending` gets nothing " +
      "else until then; `suppressed` unsubscribed or bounced. Absent for other kinds.",
  }),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).openapi("AlertRoute");

const CreatedRouteSchema = RouteSchema.extend({
  secret: z.string().nullable().openapi({
    description: "A webhook route's signing secret (`whsec_…`), shown this once; null otherwise",
  }),
}).openapi("AlertRouteCreated");

const Settings = z.record(z.string(), z.unknown()).openapi({
  description: "By `kind`: webhook `{url}` (statusd generates the signing secret); slack, " +
    "discord, teams `{url}` (the incoming or workflow webhook URL); email `{to: [addresses]}`; " +
    "pagerduty `{routingKey, endpoint?}` (Events API v2, US endpoint by default).",
  example: { kind: "slack", url: "https://hooks.slack.com/services/T000/B000/XXXX" },
});

const CreateBody = z.object({ name: z.string(), settings: Settings }).strict().openapi(
  "AlertRouteCreate",
);
const PatchBody = z.object({
  name: z.string().optional(),
  settings: Settings.optional(),
  paused: z.literal(false).optional(),
}).strict().openapi("AlertRoutePatch");

const IdParam = idParam();
const tags = ["Alerting"];
const ROUTES = "/api/user/alert-routes";
const EVENTS = "/api/user/alert-events";

function routeJson(r: RouteView): z.infer<typeof RouteSchema> {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    destination: r.destination,
    paused: r.paused && { since: toIso(r.paused.since)!, reason: r.paused.reason },
    failuresInARow: r.failuresInARow,
    ...(r.recipients ? { recipients: r.recipients.map((x) => ({ ...x })) } : {}),
    version: r.version,
    createdAt: toIso(r.createdAt)!,
    updatedAt: toIso(r.updatedAt)!,
  };
}

const testDef = defineRoute({
  method: "post",
  path: `${ROUTES}/{id}/test`,
  operationId: "testAlertRoute",
  summary: "Send a test alert",
  description: "Queues a test message on the route (202) and answers its alert event; follow " +
    "`/api/user/alert-events/{id}` for the attempt.",
  tags,
  request: { params: IdParam },
  responses: {
    202: {
      description: "Queued",
      headers: z.object({ Location: z.string() }),
      content: { "application/json": { schema: EventSchema } },
    },
  },
}, WRITE_ALERTS);

const listEventsDef = defineRoute({
  method: "get",
  path: EVENTS,
  operationId: "listAlertEvents",
  summary: "Delivered alert events",
  description: "Every notification statusd sent or is sending for the account, newest first, " +
    "filterable by `state` and `route`.",
  tags,
  request: {
    query: z.object({
      ...PageQuery,
      state: z.string().optional().openapi({
        description: "pending, delivered, failed, acknowledged or cancelled",
      }),
      route: z.string().max(100).optional(),
    }),
  },
  responses: {
    200: {
      description: "One page of events (attempts listed by getAlertEvent)",
      content: {
        "application/json": { schema: pageSchema(EventSchema, "AlertEventPage", "events") },
      },
    },
  },
}, READ_ALERTS);

const getEventDef = defineRoute({
  method: "get",
  path: `${EVENTS}/{id}`,
  operationId: "getAlertEvent",
  summary: "One alert event with every attempt",
  description: "One delivered alert event of the calling account with every attempt: time, " +
    "HTTP status or SMTP reply, latency and error, and when the next attempt is due.",
  tags,
  request: { params: IdParam },
  responses: {
    200: {
      description: "The event",
      content: { "application/json": { schema: EventSchema } },
    },
  },
}, READ_ALERTS);

const redeliverDef = defineRoute({
  method: "post",
  path: `${EVENTS}/{id}/redeliver`,
  operationId: "redeliverAlertEvent",
  summary: "Send an alert event again",
  description: "Queues a delivered or failed event again (202). It keeps its id, so a " +
    "receiver that already has it can drop the duplicate.",
  tags,
  request: { params: IdParam },
  responses: {
    202: {
      description: "Queued again",
      content: { "application/json": { schema: EventSchema } },
    },
  },
}, WRITE_ALERTS);

const RULES = "/api/user/alert-rules";

const TargetSchema = z.object({
  kind: z.enum(["monitor", "group", "board", "all"]),
  id: z.string().optional().openapi({ description: "The monitor, group or board (not for all)" }),
});

const RuleSchema = z.object({
  id: z.string().openapi({ example: "rule_k3v9q2xw8t4m" }),
  name: z.string(),
  target: TargetSchema,
  level: z.enum(STATUS_LEVELS).nullable().openapi({
    description: "Fires when what it watches reaches this level or worse; null: levels ignored",
  }),
  incidents: z.boolean().openapi({
    description: "Also tells of incidents opened, updated, resolved",
  }),
  maintenance: z.boolean().openapi({
    description: "Also tells of maintenance scheduled, started, completed",
  }),
  forMinutes: z.number().int().openapi({
    description:
      "How long the level must last before anything is sent (a shorter flap sends nothing)",
  }),
  failingMinutes: z.number().int().nullable().openapi({
    description: "Also fires when statusd has failed to read a watched vendor this many minutes",
  }),
  earlyWarning: z.boolean().openapi({
    description: "Also fires when statusd's own early warning suspects a watched vendor (its " +
      "probes of the vendor's endpoints fail, or members report it) before the vendor admits " +
      "it; the alert says it is statusd's own observation. Off unless asked",
  }),
  recovery: z.boolean().openapi({ description: "Tells when it is back under the level" }),
  routes: z.array(z.string()),
  escalation: z.string().nullable().openapi({
    description: "An escalation policy that also gets the alert, step by step until acknowledged",
  }),
  enabled: z.boolean(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).openapi("AlertRule");

const RuleBody = z.object({
  name: z.string(),
  target: TargetSchema,
  level: z.enum(STATUS_LEVELS).nullable().optional(),
  incidents: z.boolean().optional(),
  maintenance: z.boolean().optional(),
  forMinutes: z.number().int().optional(),
  failingMinutes: z.number().int().nullable().optional(),
  earlyWarning: z.boolean().optional(),
  recovery: z.boolean().optional(),
  routes: z.array(z.string()).optional(),
  escalation: z.string().nullable().optional(),
  enabled: z.boolean().optional(),
}).openapi("AlertRuleCreate");

const RulePatchBody = RuleBody.partial().openapi("AlertRulePatch");

function ruleJson(r: RuleRecord): z.infer<typeof RuleSchema> {
  return {
    id: r.id,
    name: r.name,
    target: r.target.kind === "all" ? { kind: "all" } : { kind: r.target.kind, id: r.target.id },
    level: r.level as z.infer<typeof RuleSchema>["level"],
    incidents: r.incidents,
    maintenance: r.maintenance,
    forMinutes: r.forMinutes,
    failingMinutes: r.failingMinutes ?? null,
    earlyWarning: r.earlyWarning ?? false,
    recovery: r.recovery,
    routes: [...r.routes],
    escalation: r.escalation ?? null,
    enabled: r.enabled,
    version: r.version,
    createdAt: toIso(r.createdAt)!,
    updatedAt: toIso(r.updatedAt)!,
  };
}

const ESCALATIONS = "/api/user/escalation-policies";

const EscalationSchema = z.object({
  id: z.string().openapi({ example: "esc_k3v9q2xw8t4m" }),
  name: z.string(),
  steps: z.array(z.object({
    routes: z.array(z.string()),
    afterMinutes: z.number().int().openapi({ description: "Minutes after the step before" }),
  })),
  repeat: z.number().int().openapi({ description: "Times the steps run again (0–5)" }),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).openapi("EscalationPolicy");

const EscalationBody = z.object({
  name: z.string(),
  steps: z.array(z.object({ routes: z.array(z.string()), afterMinutes: z.number().int() })),
  repeat: z.number().int().optional(),
}).openapi("EscalationPolicyCreate");
const EscalationPatchBody = EscalationBody.partial().openapi("EscalationPolicyPatch");

function escalationJson(e: EscalationRecord): z.infer<typeof EscalationSchema> {
  return {
    id: e.id,
    name: e.name,
    steps: e.steps.map((s) => ({ routes: [...s.routes], afterMinutes: s.afterMinutes })),
    repeat: e.repeat,
    version: e.version,
    createdAt: toIso(e.createdAt)!,
    updatedAt: toIso(e.updatedAt)!,
  };
}

const ackDef = defineRoute({
  method: "post",
  path: `${EVENTS}/{id}/acknowledge`,
  operationId: "acknowledgeAlertEvent",
  summary: "Acknowledge an alert: stop its escalation",
  description: "Acknowledges the alert this event belongs to: every step of its escalation " +
    "still waiting becomes `acknowledged` and is not sent. Answers how many stopped.",
  tags,
  request: { params: IdParam },
  responses: {
    200: {
      description: "Acknowledged",
      content: {
        "application/json": {
          schema: z.object({ stopped: z.number().int() }).openapi("Acknowledgement"),
        },
      },
    },
  },
}, WRITE_ALERTS);

/** Mounts the alerting API. */
export const registerAlertsApi: Register = (api) => {
  registerAccountDocApi(api, {
    path: ESCALATIONS,
    tags,
    idParam: IdParam,
    schema: EscalationSchema,
    pageSchema: pageSchema(EscalationSchema, "EscalationPolicyPage", "policies"),
    createBody: EscalationBody,
    patchBody: EscalationPatchBody,
    read: READ_ALERTS,
    write: WRITE_ALERTS,
    list: {
      operationId: "listEscalationPolicies",
      summary: "The account's escalation policies",
      description: "The calling account's escalation policies, oldest first: ordered steps " +
        "(routes and minutes to wait before each) and how many times they repeat.",
      answer: "One page of policies",
    },
    create: {
      operationId: "createEscalationPolicy",
      summary: "Escalate an alert step by step until someone acknowledges it",
      description: "`steps`: each `{routes, afterMinutes}` is told `afterMinutes` after the " +
        "step before; `repeat` (0–5) runs them again. A rule naming the policy queues every " +
        "step when it fires; acknowledging (the link in the message or acknowledgeAlertEvent) " +
        "or the recovery stops the steps still waiting. Unknown routes are a 400 naming the " +
        "field.",
    },
    get: {
      operationId: "getEscalationPolicy",
      summary: "One escalation policy",
      description: "One of the calling account's escalation policies; its ETag is its version " +
        "for If-Match. Another account's policy is a 404.",
      answer: "The policy",
    },
    update: {
      operationId: "updateEscalationPolicy",
      summary: "Change an escalation policy (fields given only)",
      description: "Changes the fields given; alerts already queued keep the steps they were " +
        "given. With If-Match, a policy changed since that ETag is refused with 412.",
      answer: "The changed policy",
    },
    remove: {
      operationId: "deleteEscalationPolicy",
      summary: "Remove an escalation policy",
      description: "Deletes the policy (204); rules naming it send to their own routes only. " +
        "With If-Match, a stale version is a 412.",
    },
    verbs: {
      list: listEscalations,
      create: createEscalation,
      get: getEscalation,
      update: updateEscalation,
      remove: deleteEscalation,
    },
    json: escalationJson,
  });
  api.openapi(ackDef, async (c) => {
    const stopped = await acknowledgeEvent(
      c.get("app"),
      c.get("principal"),
      c.req.valid("param").id,
    );
    return c.json({ stopped }, 200, NO_STORE);
  });
  registerAccountDocApi(api, {
    path: RULES,
    tags,
    idParam: IdParam,
    schema: RuleSchema,
    pageSchema: pageSchema(RuleSchema, "AlertRulePage", "rules"),
    createBody: RuleBody,
    patchBody: RulePatchBody,
    read: READ_ALERTS,
    write: WRITE_ALERTS,
    list: {
      operationId: "listAlertRules",
      summary: "The account's alert rules",
      description: "The calling account's alert rules, oldest first: what each watches, when " +
        "it fires, for how long a level must last, and where it sends.",
      answer: "One page of rules",
    },
    create: {
      operationId: "createAlertRule",
      summary: "Alert when a monitor, group, board or any monitor breaks",
      description: '`target` is a monitor, group or board of the account, or `{"kind":"all"}`; ' +
        "`level` (default PARTIAL_OUTAGE) fires at that level or worse after `forMinutes`; " +
        "`incidents` and `maintenance` add incident and maintenance notices; `routes` are the " +
        "account's alert routes. Unknown ids are a 400 naming the field.",
    },
    get: {
      operationId: "getAlertRule",
      summary: "One alert rule",
      description: "One of the calling account's alert rules; its ETag is its version for " +
        "If-Match. Another account's rule is a 404.",
      answer: "The rule",
    },
    update: {
      operationId: "updateAlertRule",
      summary: "Change an alert rule (fields given only)",
      description: "Changes the fields given; `enabled: false` silences it. With If-Match, a " +
        "rule changed since that ETag is refused with 412 and stays as it was.",
      answer: "The changed rule",
    },
    remove: {
      operationId: "deleteAlertRule",
      summary: "Remove an alert rule",
      description: "Deletes the rule (204); what it already queued still goes. With If-Match, " +
        "a stale version is a 412.",
    },
    verbs: {
      list: listRules,
      create: createRule,
      get: getRule,
      update: updateRule,
      remove: deleteRule,
    },
    json: ruleJson,
  });
  registerAccountDocApi(api, {
    path: ROUTES,
    tags,
    idParam: IdParam,
    schema: RouteSchema,
    pageSchema: pageSchema(RouteSchema, "AlertRoutePage", "routes"),
    createBody: CreateBody,
    patchBody: PatchBody,
    read: READ_ALERTS,
    write: WRITE_ALERTS,
    list: {
      operationId: "listAlertRoutes",
      summary: "The account's alert routes",
      description: "The calling account's alert routes, oldest first, each with its " +
        "destination (secrets masked), whether statusd paused it and how many deliveries " +
        "failed in a row.",
      answer: "One page of routes",
    },
    create: {
      operationId: "createAlertRoute",
      summary: "Add a destination for alerts",
      description: "Settings are checked for their kind; a URL resolving to a private or " +
        "loopback address is a 400 unless the self-hoster allows it " +
        "(STATUSD_ALLOW_PRIVATE_DESTINATIONS); email needs STATUSD_SMTP_URL. A webhook " +
        "route's signing secret is generated and shown in this answer only.",
      schema: CreatedRouteSchema,
    },
    get: {
      operationId: "getAlertRoute",
      summary: "One alert route",
      description: "One of the calling account's alert routes, secrets masked; its ETag is " +
        "its version for If-Match. Another account's route is a 404.",
      answer: "The route",
    },
    update: {
      operationId: "updateAlertRoute",
      summary: "Rename, change the destination, or resume a paused route",
      description: "`settings` replaces the destination (a webhook keeps its secret); " +
        '`{"paused": false}` resumes a route statusd paused, and its waiting deliveries go.',
      answer: "The changed route",
    },
    remove: {
      operationId: "deleteAlertRoute",
      summary: "Remove an alert route",
      description: "Deletes the route (204); deliveries still waiting for it fail, saying the " +
        "route was deleted. With If-Match, a stale version is a 412.",
    },
    verbs: {
      list: listRoutes,
      create: createRoute,
      get: getRoute,
      update: updateRoute,
      remove: deleteRoute,
    },
    json: routeJson,
    created: (made) => ({
      id: made.route.id,
      json: { ...routeJson(made.route), secret: made.secret },
    }),
  });
  api.openapi(testDef, async (c) => {
    const e = await sendTest(c.get("app"), c.get("principal"), c.req.valid("param").id);
    return c.json(eventJson(e), 202, { ...NO_STORE, Location: `${EVENTS}/${e.id}` });
  });
  api.openapi(listEventsDef, async (c) => {
    const { limit, page, state, route } = c.req.valid("query");
    const found = await listDeliveries(c.get("app"), c.get("principal"), {
      state,
      routeId: route,
    }, { limit, page });
    return c.json(pageJson(found, eventJson), 200, NO_STORE);
  });
  api.openapi(getEventDef, async (c) => {
    const e = await getDelivery(c.get("app"), c.get("principal"), c.req.valid("param").id);
    return c.json(eventJson(e), 200, NO_STORE);
  });
  api.openapi(redeliverDef, async (c) => {
    const e = await redeliver(c.get("app"), c.get("principal"), c.req.valid("param").id);
    return c.json(eventJson(e), 202, NO_STORE);
  });
};
