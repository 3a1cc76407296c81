/**
 * A vendor's rewrites of what it published are kept and shown: the API lists an incident's
 * revisions, the service page marks the incident and counts rewrites over 90 days.
 * @module
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import type { IncidentSnapshot } from "../../domain/mod.ts";
import { createServer } from "../../routes/mod.ts";
import { testContext } from "../support/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";

const T0 = Date.UTC(2026, 10, 28, 9);
const HOUR = 3_600_000;

const outage = (body: string, impact: "MAJOR" | "MINOR"): IncidentSnapshot => ({
  externalId: "i1",
  title: "Checkout errors",
  status: "RESOLVED",
  impact,
  startedAt: T0,
  updatedAt: T0 + HOUR,
  resolvedAt: T0 + HOUR,
  url: null,
  componentIds: [],
  updates: [
    { at: T0, status: "INVESTIGATING", body },
    { at: T0 + HOUR, status: "RESOLVED", body: "Resolved." },
  ],
});

Deno.test("an edited, downgraded incident shows what the vendor said first, on the API and the page", async () => {
  let now = T0 + 2 * HOUR;
  await using ctx = testContext({ clock: { now: () => now } });
  await syncVendors(ctx.store, [vendorOf({ slug: "acme", name: "Acme Cloud" })], T0 - HOUR);
  const read = (i: IncidentSnapshot, at: number) =>
    recordReading(
      ctx.store,
      "acme",
      { indicator: "OPERATIONAL", components: [], incidents: [i] },
      at,
    );
  await read(outage("All checkouts fail.", "MAJOR"), T0 + 2 * HOUR);
  await read(outage("A few checkouts were slow.", "MINOR"), T0 + 4 * HOUR);
  now = T0 + 5 * HOUR;
  const app = createServer({ app: ctx });

  const incidents = await (await app.request("http://localhost:8080/api/incidents?service=acme"))
    .json();
  const i = incidents.content[0];
  equal(i.updates[0].body, "A few checkouts were slow.");
  deepStrictEqual(i.revisions.map((r: { kind: string }) => r.kind).sort(), [
    "impact_lowered",
    "update_edited",
  ]);
  deepStrictEqual(
    i.revisions.find((r: { kind: string }) => r.kind === "update_edited").before,
    "All checkouts fail.",
  );

  const page = await (await app.request("http://localhost:8080/services/acme")).text();
  match(
    page,
    /An update was edited by the vendor 4 h after the incident was posted; it first said: “All checkouts fail\.”/,
  );
  match(page, /lowered its impact from major to minor after it ended/);
  match(page, /History rewrites in the last 90 days: 2 rewrites of 1 incident/);
});
