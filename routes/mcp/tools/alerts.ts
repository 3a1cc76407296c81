/**
 * Alerts for an on-call agent: `list_alert_events` (what statusd told the account's routes, and
 * whether it arrived) and `acknowledge_alert` (stop an escalation's waiting steps). They run the
 * same verbs as `GET /api/user/alert-events` and `POST …/{id}/acknowledge`.
 * @module
 */
import { z } from "zod";
import { acknowledgeEvent, type DeliveryView, listDeliveries } from "../../../app/mod.ts";
import { DELIVERY_STATES, toIso } from "../../../domain/mod.ts";
import { eventJson, EventSchema } from "../../../wire/mod.ts";
import { defineTool } from "../tool.ts";

/** An alert event as tools show it: the REST `AlertEvent` without its attempts. */
const EventShape = EventSchema.pick({
  id: true,
  routeId: true,
  notificationId: true,
  trigger: true,
  summary: true,
  step: true,
  recovery: true,
  state: true,
  lastError: true,
  createdAt: true,
}).extend({ due: z.string().nullable().describe("When it is (or was) due to be sent") });

function eventShape(e: DeliveryView): z.input<typeof EventShape> {
  const { source: _, changeId: _c, attempts: _a, nextAttemptAt: _n, updatedAt: _u, ...shown } =
    eventJson(e);
  return { ...shown, due: toIso(e.notBefore) };
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
