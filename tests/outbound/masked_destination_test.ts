/**
 * A route's destination is shown as scheme and host only (issue #27): any path segment may be
 * the secret (Telegram's `/bot<TOKEN>/…`, Slack's `/services/T…/B…/…`), and a routing key's
 * first characters narrow a guess. Shown through the API, no part of a secret appears.
 */
import { equal, ok } from "node:assert/strict";
import type { RouteSettingsData } from "../../domain/mod.ts";
import { describeRoute } from "../../outbound/channels/mod.ts";
import { createServer } from "../../routes/mod.ts";
import { account, key, testContext } from "../support/accounts.ts";

Deno.test("masked destinations show scheme and host, never a path or key", async () => {
  const cases: [RouteSettingsData, string][] = [
    [
      {
        kind: "webhook",
        url: "https://api.telegram.org/bot123456:AAF-secret/sendMessage",
        secret: "x",
      },
      "https://api.telegram.org/•••",
    ],
    [
      { kind: "slack", url: "https://hooks.slack.com/services/T0/B0/XyZ" },
      "https://hooks.slack.com/•••",
    ],
    [
      {
        kind: "pagerduty",
        routingKey: "R0ut1ngK3yR0ut1ngK3yR0ut1ngK3y12",
        endpoint: "https://events.pagerduty.com/v2/enqueue",
      },
      "https://events.pagerduty.com/••• · routing key •••",
    ],
  ];
  for (const [settings, shown] of cases) equal(describeRoute(settings), shown);

  await using ctx = testContext();
  const secret = await key(ctx, await account(ctx, "o@example.com"), "k", [
    "alerts:read",
    "alerts:write",
  ]);
  const app = createServer({ app: ctx });
  const headers = { "x-api-key": secret, "content-type": "application/json" };
  const made = await app.request("/api/user/alert-routes", {
    method: "POST",
    headers,
    body: JSON.stringify({
      name: "bot",
      settings: {
        kind: "webhook",
        url: "https://api.telegram.org/bot123456:AAF-secret/sendMessage",
      },
    }),
  });
  equal(made.status, 201, await made.clone().text());
  const listed = await (await app.request("/api/user/alert-routes", { headers })).text();
  ok(!listed.includes("bot123456") && !listed.includes("AAF-secret"), listed);
  ok(listed.includes("https://api.telegram.org/•••"));
});
