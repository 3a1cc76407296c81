/**
 * An uptime figure says what it covers: three minutes after a fresh start with a 25-second
 * outage, the catalog does not read as "30-day uptime 86.880 %" alone, on any surface.
 * @module
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import { createServer } from "../../routes/mod.ts";
import { uptimeSpanWords } from "../../domain/mod.ts";
import { testContext } from "../support/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";

const T0 = Date.UTC(2026, 10, 28, 12);
const calm = { indicator: "OPERATIONAL" as const, components: [], incidents: [] };
const down = { ...calm, indicator: "MAJOR_OUTAGE" as const };

Deno.test("uptime over a short watch says 'over the N observed' in the API, MCP words and pages", async () => {
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
  equal(api.uptimePercent, 86.111);

  const list = await (await app.request("http://localhost:8080/api/services")).json();
  equal(list.content[0].uptimeObservedSeconds, 180);

  const home = await (await app.request("http://localhost:8080/services")).text();
  match(home, /86\.111 %.{0,80}over the 3 min observed/s);
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
