import { deepStrictEqual } from "node:assert/strict";
import type { Vendor } from "../../domain/mod.ts";
import { syncCatalog } from "../../store/mod.ts";
import { memoryStore } from "../support/store.ts";

const vendor = (slug: string, extra: Partial<Vendor> = {}): Vendor => ({
  name: slug,
  slug,
  statusPageUrl: `https://status.${slug}.test`,
  platform: "statuspage",
  category: "other",
  provider: slug,
  domains: [],
  ...extra,
});

Deno.test("syncCatalog adds, updates and retires vendors by slug, keeping retired data", () => {
  const db = memoryStore();
  try {
    deepStrictEqual(syncCatalog(db, [vendor("a"), vendor("b")], 1), {
      added: 2,
      updated: 0,
      unchanged: 0,
      retired: 0,
    });
    db.prepare("UPDATE vendors SET current_status = 'MAJOR_OUTAGE', etag = 'x' WHERE slug = 'b'")
      .run();
    deepStrictEqual(
      syncCatalog(db, [vendor("a", { name: "A!" }), vendor("c")], 2),
      { added: 1, updated: 1, unchanged: 0, retired: 1 },
    );
    const rows = db.prepare(
      "SELECT slug, name, in_catalog, current_status FROM vendors ORDER BY slug",
    )
      .all().map((r) => ({ ...r }));
    deepStrictEqual(rows, [
      { slug: "a", name: "A!", in_catalog: 1, current_status: "UNKNOWN" },
      { slug: "b", name: "b", in_catalog: 0, current_status: "MAJOR_OUTAGE" },
      { slug: "c", name: "c", in_catalog: 1, current_status: "UNKNOWN" },
    ]);
    // Back in the catalog with a new page URL: polled again at once, validators dropped.
    syncCatalog(db, [
      vendor("a", { name: "A!" }),
      vendor("b", { statusPageUrl: "https://b.test/s" }),
      vendor("c"),
    ], 3);
    deepStrictEqual(
      {
        ...db.prepare("SELECT in_catalog, etag, next_poll_at FROM vendors WHERE slug = 'b'").get(),
      },
      { in_catalog: 1, etag: null, next_poll_at: 3 },
    );
  } finally {
    db.close();
  }
});
