/**
 * A SQLite database written before timestamps were checked (or by hand) may hold instants no
 * date can print, such as `created_at: 9e15` stored as is. Every read path still answers. The
 * port never writes such values, so they are written into the rows directly here, as an old bad
 * database holds them (engine-specific).
 */
import { equal, ok } from "node:assert/strict";
import { addComponent, addIncident, addVendor, apiRig, T0 } from "../../support/api.ts";
import { migrate, openDb } from "./_sqlite.ts";
import { sqliteStoreOver } from "../../../store/sqlite/mod.ts";

const FAR = 9e15;

Deno.test("rows with out-of-range times never make a read path fail", async () => {
  const db = openDb(":memory:");
  migrate(db);
  const rig = apiRig({ store: sqliteStoreOver(db) });
  try {
    await addVendor(rig.store, { slug: "hostile", status: "PARTIAL_OUTAGE" });
    await addComponent(rig.store, "hostile", {
      externalId: "c",
      name: "API",
      status: "PARTIAL_OUTAGE",
    });
    await addIncident(rig.store, "hostile", {
      externalId: "far",
      title: "From the far future",
      status: "INVESTIGATING",
      impact: "MAJOR",
      startedAt: FAR,
      updatedAt: FAR,
      resolvedAt: -FAR,
      componentIds: ["c"],
      updates: [{ at: FAR, status: "INVESTIGATING", body: "later" }],
    });
    await addIncident(rig.store, "hostile", {
      externalId: "text",
      title: "A time stored as text",
      status: "RESOLVED",
      impact: "MINOR",
      startedAt: T0 - 1000,
    });
    await addVendor(rig.store, { slug: "healthy" });
    // What an old database may hold.
    db.exec(`UPDATE components SET updated_at = ${-FAR}`);
    db.exec(`UPDATE vendors SET last_checked_at = ${FAR}, last_changed_at = ${FAR}
      WHERE slug = 'hostile'`);
    db.exec("UPDATE incidents SET updated_at = 'soon' WHERE external_id = 'text'");

    for (
      const path of [
        "/api/incidents",
        "/api/incidents?active=true",
        "/api/services",
        "/api/services/hostile",
        "/api/services/hostile/history",
        "/api/services/hostile/uptime",
        "/api/status/providers-overview",
        "/sitemap.xml",
        "/services",
        "/services/hostile",
        "/",
      ]
    ) {
      const res = await rig.get(path);
      equal(res.status, 200, path);
      await res.text();
    }
    const feed = await (await rig.get("/api/incidents")).json();
    const far = feed.content.find((i: { title: string }) => i.title === "From the far future");
    equal(far.startedAt, "9999-12-31T23:59:59.999Z");
    equal(far.resolvedAt, "0000-01-01T00:00:00.000Z");
    equal(far.updates[0].at, "9999-12-31T23:59:59.999Z");
    const text = feed.content.find((i: { title: string }) => i.title === "A time stored as text");
    equal(text.updatedAt, "1970-01-01T00:00:00.000Z");
    const res = await rig.get("/sitemap.xml");
    const sitemap = await res.text();
    ok(sitemap.includes("/services/hostile"));
    ok(!sitemap.includes("<lastmod>9999"), "no page is dated in the future");
    equal(res.headers.get("last-modified"), new Date(T0).toUTCString());
  } finally {
    await rig.close();
  }
});
