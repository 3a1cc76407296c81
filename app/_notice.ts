/**
 * Messages that are about no vendor: a test, a request to confirm an address, a notice. One
 * shape, so every channel renders them alike.
 * @module
 */
import type { AlertMessage, DeliverySource } from "../domain/mod.ts";
import type { AppContext } from "./context.ts";

/** A message about no service: its words and links, everything vendor-related empty. */
export function noticeMessage(
  m:
    & Pick<AlertMessage, "notificationId" | "summary" | "advice" | "links" | "sentBecause" | "at">
    & {
      readonly trigger: "notice" | "test";
    },
): AlertMessage {
  return {
    ...m,
    level: "OPERATIONAL",
    previousLevel: null,
    service: null,
    components: [],
    componentsTotal: 0,
    incident: null,
    timeToResolve: null,
  };
}

/**
 * Queues one message about no vendor for sending now (a test, a request to confirm, a
 * confirmation) and wakes the delivery worker.
 */
export async function queueNotice(
  ctx: AppContext,
  d: {
    readonly id: string;
    readonly accountId: string;
    readonly routeId: string;
    readonly source: DeliverySource;
    readonly subject: string | null;
    readonly message: AlertMessage;
  },
): Promise<void> {
  await ctx.store.deliveries.enqueue([{
    ...d,
    changeId: null,
    notificationId: d.message.notificationId,
    step: 0,
    recovery: false,
    notBefore: d.message.at,
    createdAt: d.message.at,
  }]);
  ctx.wakeDeliveries?.();
}
