/**
 * An uptime figure says what it covers: three minutes after a fresh start with a 25-second
 * outage, no surface reads "30-day uptime 86.111 %": under a day observed, every one says "not
 * enough data yet (3 min observed)" and how long was observed; later, a figure says the span it
 * covers ("over the 2 d observed") until it covers the window.
 * @module
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import { createServer } from "../../routes/mod.ts";
import { uptimeSpanWords } from "../../domain/mod.ts";
import { account, key, testContext } from "../support/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";

const T0 = Date.UTC(2026, 10, 28, 12);
const calm = { indicator: "OPERATIONAL" as const, components: [], incidents: [] };
const down = { ...calm, indicator: "MAJOR_OUTAGE" as const };

Deno.test("uptime over minutes of watching is no figure: 'not enough data yet' in the API, MCP and pages", async () => {
  let now = T0;
  await using ctx = testContext({ clock: { now: () => now } });
  await syncVendors(ctx.store, [vendorOf({ slug: "acme", name: "Acme Cloud" })], T0);
  await recordReading(ctx.store, "acme", calm, T0);
  await recordReading(ctx.store, "acme", down, T0 + 60_000);
  await recordReading(ctx.store, "acme", calm, T0 + 85_000);
  now = T0 + 180_000;
  const app = createServer({ app: ctx });

  const api = await (await app.request("http://localhost:8080/api/services/acme")).json();
  equal(api.uptimeObservedSeconds, 180);
  equal(api.uptimePercent, null);

  const list = await (await app.request("http://localhost:8080/api/services")).json();
  equal(list.content[0].uptimeObservedSeconds, 180);

  const home = await (await app.request("http://localhost:8080/services")).text();
  match(home, /not enough data yet \(3 min observed\)/);
  equal(/86\.111/.test(home), false);

  // The SLA report (API) and the uptime report (MCP) say what their window's figure covers.
  const who = await account(ctx, "owner@example.com");
  const secret = await key(ctx, who, "reports", []);
  const sla = await (await app.request("http://localhost:8080/api/user/services/acme/sla?days=30", {
    headers: { "x-api-key": secret },
  })).json();
  equal(sla.observedSeconds, 180);
  equal(sla.uptimePercent, null);
  equal(sla.met, null);
  equal(sla.note, "not enough data yet (3 min observed)");
  const mcp = await app.request("http://localhost:8080/api/mcp", {
    method: "POST",
    headers: {
      "x-api-key": secret,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "get_uptime_report", arguments: { slug: "acme", range: "30d" } },
    }),
  });
  const report = (await mcp.json()).result.structuredContent;
  equal(report.uptimeCovers, "over the 3 min observed");
  equal(report.uptimePercent, null);
  equal(report.note, "not enough data yet (3 min observed)");

  // Two days on, a figure again, saying what it covers.
  now = T0 + 2 * 86_400_000;
  await recordReading(ctx.store, "acme", calm, now - 60_000);
  const later = await (await createServer({ app: ctx }).request("http://localhost:8080/services"))
    .text();
  match(later, /\d+\.\d{3} %.{0,80}over the 2 d observed/s);
});

Deno.test("uptime words: the whole window reads as the window; less reads as what was observed", () => {
  const DAY = 86_400_000;
  deepStrictEqual(
    [30 * DAY, 29.8 * DAY, 29 * DAY, 3 * 3_600_000 + 600_000, 20_000].map((ms) =>
      uptimeSpanWords(ms, 30)
    ),
    [
      "30-day",
      "30-day",
      "over the 29 d observed",
      "over the 3 h 10 min observed",
      "over the 1 min observed",
    ],
  );
});
