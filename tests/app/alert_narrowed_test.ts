/**
 * A monitor narrowed to components hears only of incidents the vendor says touch them (issue
 * #28): watching "API", an incident affecting only "EU West" sends nothing, one affecting "API"
 * is sent, and one that names no components is sent saying the vendor named none.
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import {
  type Caller,
  createMonitor,
  createRoute,
  createRule,
  evaluateAlerts,
} from "../../app/mod.ts";
import type { IncidentSnapshot, Snapshot } from "../../domain/mod.ts";
import { factLines } from "../../outbound/channels/_text.ts";
import { account, testContext } from "../support/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";

const T0 = Math.floor(Date.now() / 1000) * 1000;

const incident = (id: string, at: number, componentIds: string[]): IncidentSnapshot => ({
  externalId: id,
  title: `Incident ${id}`,
  status: "INVESTIGATING",
  impact: "MINOR",
  startedAt: at,
  updatedAt: at,
  resolvedAt: null,
  url: null,
  componentIds,
  updates: [{ at, status: "INVESTIGATING", body: "Looking" }],
});

const page = (incidents: IncidentSnapshot[]): Snapshot => ({
  indicator: "OPERATIONAL",
  components: [
    { externalId: "api", name: "API", group: null, status: "OPERATIONAL" },
    { externalId: "eu", name: "EU West", group: null, status: "OPERATIONAL" },
  ],
  incidents,
});

Deno.test("a monitor of API hears of API's incidents and unnamed ones, never of EU West's", async () => {
  let now = T0;
  await using ctx = testContext({ clock: { now: () => now } });
  await syncVendors(ctx.store, [vendorOf({ slug: "acme", name: "Acme Cloud" })], T0 - 86_400_000);
  await recordReading(ctx.store, "acme", page([]), T0 - 3_600_000);
  const who = await account(ctx, "owner@example.com");
  const admin: Caller = { kind: "admin", account: who.account };
  const route = (await createRoute(ctx, admin, {
    name: "hooks",
    settings: { kind: "webhook", url: "http://127.0.0.1:9/hooks" },
  })).route;
  await createMonitor(ctx, admin, { service: "acme", components: ["API"] });
  await createRule(ctx, admin, {
    name: "incidents",
    target: { kind: "all" },
    level: null,
    incidents: true,
    routes: [route.id],
  });
  await evaluateAlerts(ctx);
  now += 60_000;
  await recordReading(
    ctx.store,
    "acme",
    page([
      incident("eu-only", now, ["eu"]),
      incident("api", now, ["api", "eu"]),
      incident("unnamed", now, []),
    ]),
    now,
  );
  await evaluateAlerts(ctx);
  const sent = (await ctx.store.deliveries.list(who.account.id, {}, { page: 0, limit: 50 })).items
    .map((d) => d.message);
  deepStrictEqual(sent.map((m) => m.incident?.title).sort(), [
    "Incident api",
    "Incident unnamed",
  ]);
  const unnamed = sent.find((m) => m.incident?.title === "Incident unnamed")!;
  match(factLines(unnamed).join("\n"), /Acme Cloud did not name the components it affects/);
  const api = sent.find((m) => m.incident?.title === "Incident api")!;
  equal(factLines(api).join("\n").includes("Affects: API, EU West"), true);
});
