/**
 * Messages that are about no vendor: a test, a request to confirm an address, a notice. One
 * shape, so every channel renders them alike.
 * @module
 */
import type { AlertMessage } from "../domain/mod.ts";

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
