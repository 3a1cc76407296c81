/**
 * Every channel passes on links as RFC 3986 URIs: a vendor's status page or incident URL with
 * `|`, `>` and spaces (`a|b>c d`) reaches PagerDuty's `links[].href`, Teams' `Action.OpenUrl`,
 * Discord's fields, Slack's links, the webhook's JSON and the mail percent-encoded.
 * @module
 */
import { equal, ok } from "node:assert/strict";
import type { AlertMessage, RouteSettingsData } from "../../domain/mod.ts";
import { toUri } from "../../lib/mod.ts";
import { renderFor } from "../../outbound/channels/mod.ts";

const RAW = "https://status.acme.example/a|b>c d?q=x y#frag ment";
const ENCODED = "https://status.acme.example/a%7Cb%3Ec%20d?q=x%20y#frag%20ment";

const message: AlertMessage = {
  notificationId: "ntf_1",
  trigger: "incident_opened",
  summary: "Acme: trouble",
  level: "PARTIAL_OUTAGE",
  previousLevel: "OPERATIONAL",
  service: {
    slug: "acme",
    name: "Acme",
    vendorUrl: RAW,
    statusdUrl: "https://status.example.com/services/acme",
  },
  components: [],
  componentsTotal: 0,
  incident: {
    id: "i1",
    title: "Trouble",
    status: "INVESTIGATING",
    impact: "MINOR",
    latestUpdate: "Looking",
    url: `${RAW}/incidents/1 2`,
    components: [],
  },
  timeToResolve: null,
  advice: "Check the vendor's page.",
  links: { alerts: "https://status.example.com/settings/alerts" },
  sentBecause: "rule r",
  at: Date.UTC(2026, 11, 7),
};

const ROUTES: RouteSettingsData[] = [
  {
    kind: "webhook",
    url: "https://hooks.example.com/x",
    secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  },
  { kind: "slack", url: "https://hooks.slack.com/services/x" },
  { kind: "discord", url: "https://discord.com/api/webhooks/1/x" },
  { kind: "teams", url: "https://prod-00.westeurope.logic.azure.com/workflows/x" },
  {
    kind: "pagerduty",
    routingKey: "R0ut1ngK3yR0ut1ngK3yR0ut1ngK3y12",
    endpoint: "https://events.pagerduty.com/v2/enqueue",
  },
  { kind: "email", to: ["ops@example.com"] },
];

Deno.test("toUri percent-encodes what RFC 3986 does not allow, and nothing already encoded", () => {
  equal(toUri(RAW), ENCODED);
  equal(toUri("https://x.example/%7Cok%zz"), "https://x.example/%7Cok%25zz");
  equal(toUri("https://x.example/ü"), "https://x.example/%C3%BC");
  equal(toUri(ENCODED), ENCODED);
});

Deno.test("every channel sends a vendor's a|b>c link percent-encoded", () => {
  for (const settings of ROUTES) {
    const out = renderFor(settings, message, { eventId: "dlv_1", at: message.at });
    const text = out.kind === "http" ? out.body : `${out.text}\n${out.html}`;
    ok(text.includes(ENCODED), `${settings.kind}: the encoded link`);
    ok(!text.includes("a|b>c"), `${settings.kind}: no raw link`);
    ok(!/a\|b(&gt;|\\u003e)c/.test(text), `${settings.kind}: no escaped raw link either`);
    ok(text.includes("incidents/1%202"), `${settings.kind}: the incident's link`);
  }
});
