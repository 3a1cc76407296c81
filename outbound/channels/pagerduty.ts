/**
 * PagerDuty Events API v2: `trigger` for an alert and `resolve` for its recovery,
 * with the notification id as a stable `dedup_key` so a retry or a repeat updates one incident;
 * `payload.summary` ≤ 1,024 characters, `severity` one of critical, error, warning, info
 * (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/).
 * @module
 */
import type { StatusLevel } from "../../domain/mod.ts";
import type { Channel } from "./types.ts";
import { cut, expectation, linkList } from "./_text.ts";

/** A PagerDuty route's settings. */
export interface PagerDutySettings {
  readonly kind: "pagerduty";
  readonly routingKey: string;
  readonly endpoint: string;
}

/** A level's PagerDuty severity. */
export function severityOf(level: StatusLevel): "critical" | "error" | "warning" | "info" {
  switch (level) {
    case "MAJOR_OUTAGE":
      return "critical";
    case "PARTIAL_OUTAGE":
      return "error";
    case "DEGRADED_PERFORMANCE":
    case "UNKNOWN":
      return "warning";
    default:
      return "info";
  }
}

export const pagerDutyChannel: Channel<PagerDutySettings> = {
  kind: "pagerduty",
  render(message, settings, context) {
    const resolve = message.trigger === "recovered" || message.trigger === "incident_resolved";
    const body = resolve
      ? {
        routing_key: settings.routingKey,
        event_action: "resolve",
        dedup_key: message.notificationId,
      }
      : {
        routing_key: settings.routingKey,
        event_action: "trigger",
        dedup_key: message.notificationId,
        payload: {
          summary: cut(message.summary, 1024),
          source: message.service ? cut(message.service.name, 255) : "statusd",
          severity: severityOf(message.level),
          timestamp: new Date(context.at).toISOString(),
          component: message.components[0] ? cut(message.components[0].name, 255) : undefined,
          class: message.trigger,
          custom_details: {
            level: message.level,
            components: message.components.slice(0, 20),
            components_total: message.componentsTotal,
            incident: message.incident,
            expectation: expectation(message),
            advice: message.advice,
            event_id: context.eventId,
          },
        },
        client: "statusd",
        ...(message.service ? { client_url: message.service.statusdUrl } : {}),
        links: linkList(message).slice(0, 5).map((l) => ({ href: l.url, text: cut(l.label, 100) })),
      };
    return {
      kind: "http",
      url: settings.endpoint,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    };
  },
  describe: (s) => `${new URL(s.endpoint).origin}/••• · routing key •••`,
};
