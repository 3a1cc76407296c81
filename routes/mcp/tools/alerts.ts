/**
 * Alerts for an on-call agent: `list_alert_events` (what statusd told the account's routes, and
 * whether it arrived) and `acknowledge_alert` (stop an escalation's waiting steps). They run the
 * same verbs as `GET /api/user/alert-events` and `POST …/{id}/acknowledge`.
 * @module
 */
import { z } from "zod";
import { acknowledgeEvent, type DeliveryView, listDeliveries } from "../../../app/mod.ts";
import { DELIVERY_STATES, toIso } from "../../../domain/mod.ts";
import { defineTool } from "../tool.ts";

const EventShape = z.object({
  id: z.string(),
  routeId: z.string(),
  notificationId: z.string().describe("Steps, repeats and the recovery of one alert share it"),
  trigger: z.string(),
  summary: z.string(),
  step: z.number().int().describe("0: the rule's routes; 1…: an escalation step"),
  recovery: z.boolean(),
  state: z.enum(DELIVERY_STATES),
  lastError: z.string().nullable(),
  due: z.string().nullable().describe("When it is (or was) due to be sent"),
  createdAt: z.string().nullable(),
});

function eventShape(e: DeliveryView): z.input<typeof EventShape> {
  return {
    id: e.id,
    routeId: e.routeId,
    notificationId: e.notificationId,
    trigger: e.trigger,
    summary: e.summary,
    step: e.step,
    recovery: e.recovery,
    state: e.state,
    lastError: e.lastError,
    due: toIso(e.notBefore),
    createdAt: toIso(e.createdAt),
  };
}

/** `list_alert_events`. */
export const listAlertEventsTool = defineTool({
  name: "list_alert_events",
  title: "List alert events",
  description:
    "The alerts statusd sent (or will send) to your account's routes, newest first: what each " +
    "said, to which route, whether it was delivered, failed or is waiting (an escalation step). " +
    "Pass `state` (e.g. pending) to see only those; use acknowledge_alert with an event's id.",
  scopes: ["alerts:read"],
  input: z.object({
    state: z.enum(DELIVERY_STATES).optional(),
    limit: z.number().int().min(1).max(100).default(20),
  }),
  output: z.object({ total: z.number().int(), events: z.array(EventShape) }),
  async run(ctx, caller, args) {
    const page = await listDeliveries(
      ctx,
      caller,
      args.state ? { state: args.state } : {},
      { page: 0, limit: args.limit },
    );
    return { total: page.totalElements, events: page.content.map(eventShape) };
  },
});

/** `acknowledge_alert`. */
export const acknowledgeAlertTool = defineTool({
  name: "acknowledge_alert",
  title: "Acknowledge an alert",
  description:
    "Acknowledges the alert an event belongs to (`id` from list_alert_events): the escalation " +
    "steps still waiting for it are not sent. Answers how many steps stopped (0 when none was " +
    "waiting). The alert's recovery is still sent when the vendor recovers.",
  hints: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  scopes: ["alerts:write"],
  input: z.object({ id: z.string().min(1).max(100) }),
  output: z.object({ stopped: z.number().int() }),
  async run(ctx, caller, args) {
    return { stopped: await acknowledgeEvent(ctx, caller, args.id) };
  },
});
