/**
 * An alert event as statusd shows it outside: one delivery of an alert to a route, its state
 * and every attempt.
 * @module
 */
import { z } from "zod";
import { DELIVERY_STATES, type DeliveryView, toIso } from "../domain/mod.ts";

/** One attempt to deliver. */
export const AttemptSchema = z.object({
  n: z.number().int(),
  at: z.string(),
  ok: z.boolean(),
  status: z.number().int().nullable().meta({ description: "HTTP status or SMTP reply code" }),
  reply: z.string().nullable(),
  latencyMs: z.number(),
  error: z.string().nullable(),
});

/** An alert event. */
export const EventSchema = z.object({
  id: z.string().meta({
    description: "Stable: the `webhook-id` receivers can drop a duplicate by",
  }),
  routeId: z.string(),
  source: z.object({
    kind: z.enum(["rule", "subscription", "test", "notice"]),
    id: z.string().nullable(),
  }),
  changeId: z.number().int().nullable(),
  notificationId: z.string(),
  step: z.number().int(),
  recovery: z.boolean(),
  trigger: z.string(),
  summary: z.string(),
  state: z.enum(DELIVERY_STATES),
  attempts: z.array(AttemptSchema),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** An alert event as JSON. */
export function eventJson(e: DeliveryView): z.infer<typeof EventSchema> {
  return {
    id: e.id,
    routeId: e.routeId,
    source: e.source,
    changeId: e.changeId,
    notificationId: e.notificationId,
    step: e.step,
    recovery: e.recovery,
    trigger: e.trigger,
    summary: e.summary,
    state: e.state,
    attempts: e.attempts.map((a) => ({ ...a, at: toIso(a.at)! })),
    lastError: e.lastError,
    nextAttemptAt: e.state === "pending" ? toIso(e.notBefore) : null,
    createdAt: toIso(e.createdAt)!,
    updatedAt: toIso(e.updatedAt)!,
  };
}
