import { deepStrictEqual, equal } from "node:assert/strict";
import { DAY_MS, HOUR_MS } from "../../../domain/mod.ts";
import { HistorySchema, UptimeSchema } from "../../../routes/api/schemas.ts";
import { addTransitions, addVendor, apiRig, body, polledRig, T0 } from "../../support/api.ts";

const DAY0 = Date.UTC(2026, 10, 20); // the rig's "today" (T0 is noon)

Deno.test("uptime over 7/30/90 days: partial outage 30 % down, UNKNOWN left out, maintenance up", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme" });
    // First seen 10 days ago. 10 h partial outage 5 days ago, 24 h UNKNOWN 3 days ago,
    // 6 h maintenance 2 days ago, 2 h major outage 1 day ago.
    await addTransitions(r.store, "acme", [
      [T0 - 10 * DAY_MS, "OPERATIONAL"],
      [T0 - 5 * DAY_MS, "PARTIAL_OUTAGE"],
      [T0 - 5 * DAY_MS + 10 * HOUR_MS, "OPERATIONAL"],
      [T0 - 3 * DAY_MS, "UNKNOWN"],
      [T0 - 2 * DAY_MS, "UNDER_MAINTENANCE"],
      [T0 - 2 * DAY_MS + 6 * HOUR_MS, "OPERATIONAL"],
      [T0 - DAY_MS, "MAJOR_OUTAGE"],
      [T0 - DAY_MS + 2 * HOUR_MS, "OPERATIONAL"],
    ]);
    const res = await body(await r.get("/api/services/acme/uptime"));
    equal(res.status, 200);
    const u = UptimeSchema.parse(res.json);
    // 7 days: 168 h − 24 h unknown = 144 h observed; down = 0.3 × 10 + 2 = 5 h.
    const p7 = Math.round(100 * (1 - 5 / 144) * 1000) / 1000;
    // 30 and 90 days: observed since 10 days ago = 240 − 24 = 216 h; down 5 h.
    const p30 = Math.round(100 * (1 - 5 / 216) * 1000) / 1000;
    deepStrictEqual(u, {
      slug: "acme",
      days7: p7,
      days30: p30,
      days90: p30,
      mttrMinutes: (600 + 120) / 2,
      disruptions: 2,
      asOf: "2026-11-20T12:00:00.000Z",
      // Observed since it was first seen; 24 h of UNKNOWN inside the windows are left out.
      observedSince: "2026-11-10T12:00:00.000Z",
      observedPercent: { days7: 85.7, days30: 30, days90: 10 },
      note: null,
    });
  } finally {
    await r.close();
  }
});

Deno.test("uptime of a service never observed is null, and MTTR needs an ended disruption", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "never" });
    await addVendor(r.store, { slug: "down" });
    await addTransitions(r.store, "down", [
      [T0 - DAY_MS, "OPERATIONAL"],
      [T0 - HOUR_MS, "MAJOR_OUTAGE"],
    ]);
    deepStrictEqual(
      UptimeSchema.parse((await body(await r.get("/api/services/never/uptime"))).json),
      {
        slug: "never",
        days7: null,
        days30: null,
        days90: null,
        mttrMinutes: null,
        disruptions: 0,
        asOf: "2026-11-20T12:00:00.000Z",
        observedSince: null,
        observedPercent: { days7: 0, days30: 0, days90: 0 },
        note: "not enough data yet (nothing observed)",
      },
    );
    const down = UptimeSchema.parse((await body(await r.get("/api/services/down/uptime"))).json);
    equal(down.days7, Math.round(100 * (23 / 24) * 1000) / 1000);
    equal(down.mttrMinutes, null);
  } finally {
    await r.close();
  }
});

Deno.test("history gives the worst status per UTC day, oldest first, UNKNOWN before first sight", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme" });
    await addTransitions(r.store, "acme", [
      [DAY0 - 3 * DAY_MS + 20 * HOUR_MS, "OPERATIONAL"], // first seen 3 days ago, 20:00
      [DAY0 - 2 * DAY_MS + 5 * HOUR_MS, "DEGRADED_PERFORMANCE"],
      [DAY0 - 2 * DAY_MS + 6 * HOUR_MS, "MAJOR_OUTAGE"],
      [DAY0 - 2 * DAY_MS + 7 * HOUR_MS, "OPERATIONAL"],
      [DAY0 - DAY_MS + 23 * HOUR_MS, "UNDER_MAINTENANCE"], // into today
      [DAY0 + 1 * HOUR_MS, "OPERATIONAL"],
    ]);
    const res = await body(await r.get("/api/services/acme/history?days=5"));
    equal(res.status, 200);
    deepStrictEqual(HistorySchema.parse(res.json), {
      slug: "acme",
      days: 5,
      entries: [
        { date: "2026-11-16", worstStatus: "UNKNOWN" },
        { date: "2026-11-17", worstStatus: "OPERATIONAL" },
        { date: "2026-11-18", worstStatus: "MAJOR_OUTAGE" },
        { date: "2026-11-19", worstStatus: "UNDER_MAINTENANCE" },
        { date: "2026-11-20", worstStatus: "UNDER_MAINTENANCE" },
      ],
    });
    const full = HistorySchema.parse((await body(await r.get("/api/services/acme/history"))).json);
    equal(full.days, 90);
    equal(full.entries.length, 90);
    equal(full.entries.at(-1)!.date, "2026-11-20");
  } finally {
    await r.close();
  }
});

Deno.test("history days outside 1..90 answer 400 naming days", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme" });
    for (const days of ["0", "91", "x"]) {
      const res = await body(await r.get(`/api/services/acme/history?days=${days}`));
      equal(res.status, 400);
      equal(res.json.error, "invalid_request");
      deepStrictEqual((res.json.issues as { parameter: string }[]).map((i) => i.parameter), [
        "days",
      ]);
    }
  } finally {
    await r.close();
  }
});

Deno.test("history and uptime are open to anonymous callers; a bad key gets 401", async () => {
  const r = await polledRig(1);
  try {
    equal((await r.get("/api/services/sim-00001/history?days=1")).status, 200);
    equal((await r.get("/api/services/sim-00001/uptime")).status, 200);
    const res = await r.get("/api/services/sim-00001/uptime", { "X-API-Key": "sd_live_nope" });
    equal(res.status, 401);
    equal((await res.json()).error, "unauthorized");
  } finally {
    await r.close();
  }
});
