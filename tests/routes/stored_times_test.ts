/**
 * A database written before timestamps were checked (or by hand) may hold instants no date can
 * print, such as `created_at: 9e15` stored as is. Every read path still answers: the rows are
 * written directly here, as an old bad database would hold them.
 */
import { equal, ok } from "node:assert/strict";
import { addComponent, addIncident, addVendor, apiRig, T0 } from "../support/api.ts";

const FAR = 9e15;

Deno.test("rows with out-of-range times never make a read path fail", async () => {
  const rig = apiRig();
  try {
    const id = addVendor(rig.db, { slug: "hostile", status: "PARTIAL_OUTAGE", lastChangedAt: FAR });
    addComponent(rig.db, id, { externalId: "c", name: "API", status: "PARTIAL_OUTAGE" });
    rig.db.prepare("UPDATE components SET updated_at = ? WHERE vendor_id = ?").run(-FAR, id);
    rig.db.prepare("UPDATE vendors SET last_checked_at = ? WHERE id = ?").run(FAR, id);
    addIncident(rig.db, id, {
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
    addIncident(rig.db, id, {
      externalId: "text",
      title: "A time stored as text",
      status: "RESOLVED",
      impact: "MINOR",
      startedAt: T0 - 1000,
    });
    rig.db.prepare("UPDATE incidents SET updated_at = 'soon' WHERE external_id = 'text'").run();
    addVendor(rig.db, { slug: "healthy" });

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
