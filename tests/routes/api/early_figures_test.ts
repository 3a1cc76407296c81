/**
 * Figures need something behind them: uptime observed for less than a day reads "not enough data
 * yet (N min observed)" instead of a percentage (API, service page, tables), and an SLA is not
 * met or missed in 42 seconds; the MCP instructions say which tools change things.
 * @module
 */
import { equal, match } from "node:assert/strict";
import { INSTRUCTIONS } from "../../../routes/mcp/identity.ts";
import { account, key } from "../../support/accounts.ts";
import { addTransitions, addVendor, apiRig, T0 } from "../../support/api.ts";
import { section, visibleText } from "../../support/html.ts";

Deno.test("uptime of four minutes and an SLA of 42 seconds say not enough data yet", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "fresh", name: "Fresh" });
    await addTransitions(r.store, "fresh", [[T0 - 4 * 60_000, "OPERATIONAL"]]);
    const u = await (await r.get("/api/services/fresh/uptime")).json();
    equal(u.days7, null);
    equal(u.days90, null);
    equal(u.note, "not enough data yet (4 min observed)");
    const page = visibleText(section(
      await (await r.get("/services/fresh", {
        accept: "text/html",
      })).text(),
      "uptime",
    ));
    match(page, /Uptime not enough data yet \(4 min observed\)/);
    equal(/\d+\.\d{3} %/.test(page), false, "no percentage");

    await addVendor(r.store, { slug: "newer", name: "Newer" });
    await addTransitions(r.store, "newer", [[T0 - 42_000, "OPERATIONAL"]]);
    const who = await account(r.ctx, "ops@example.test");
    const k = await key(r.ctx, who, "sla", ["sla:read"]);
    const sla = await (await r.get("/api/user/services/newer/sla", { "x-api-key": k })).json();
    equal(sla.met, null);
    equal(sla.uptimePercent, null);
    equal(sla.note, "not enough data yet (under a minute observed)");

    // A day on, the figures are figures.
    await addVendor(r.store, { slug: "known", name: "Known" });
    await addTransitions(r.store, "known", [[T0 - 2 * 86_400_000, "OPERATIONAL"]]);
    const known = await (await r.get("/api/services/known/uptime")).json();
    equal(known.days7, 100);
    equal(known.note, null);
    const met = await (await r.get("/api/user/services/known/sla", { "x-api-key": k })).json();
    equal(met.met, true);
    equal(met.note, null);
  } finally {
    await r.close();
  }
});

Deno.test("the MCP instructions name the four tools that change things and their scopes", () => {
  equal(/read-only/i.test(INSTRUCTIONS), false);
  match(INSTRUCTIONS, /add_monitor and remove_monitor \(monitors:write\)/);
  match(INSTRUCTIONS, /add_vendor \(monitors:write\)/);
  match(INSTRUCTIONS, /acknowledge_alert \(alerts:write\)/);
});
