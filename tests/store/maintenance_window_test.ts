import { deepStrictEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { HOUR_MS, type IncidentSnapshot, type Snapshot } from "../../domain/mod.ts";
import { openDb } from "../../store/db.ts";
import {
  applySnapshot,
  listIncidentRows,
  listMaintenanceRows,
  migrate,
  openStore,
  syncCatalog,
  vendorIdBySlug,
} from "../../store/mod.ts";
import { MIGRATIONS } from "../../store/migrations/mod.ts";
import { memoryStore } from "../support/store.ts";

const T = Date.UTC(2026, 2, 1, 12);
const upgrade: IncidentSnapshot = {
  externalId: "m-1",
  title: "Database upgrade",
  status: "SCHEDULED",
  impact: "MAINTENANCE",
  startedAt: T + 2 * HOUR_MS,
  updatedAt: T,
  resolvedAt: null,
  url: "https://status.acme.test/incidents/m-1",
  componentIds: [],
  updates: [{ at: T, status: "SCHEDULED", body: "We will upgrade the database" }],
  scheduledStartAt: T + 2 * HOUR_MS,
  scheduledEndAt: T + 4 * HOUR_MS,
};
const snapshot = (incidents: IncidentSnapshot[]): Snapshot => ({
  indicator: "OPERATIONAL",
  components: [],
  incidents,
});

function acme() {
  const db = memoryStore();
  syncCatalog(db, [{
    name: "Acme",
    slug: "acme",
    statusPageUrl: "https://status.acme.test",
    platform: "statuspage",
    category: "other",
    provider: "acme",
    domains: [],
  }], T);
  return { db, id: vendorIdBySlug(db, "acme")! };
}

Deno.test("a maintenance's planned window is stored and read back; a reschedule is a change", () => {
  const { db, id } = acme();
  try {
    applySnapshot(db, id, snapshot([upgrade]), T);
    const [stored] = listIncidentRows(db, { service: "acme" }, { page: 0, limit: 10 });
    deepStrictEqual(
      [stored!.scheduledStartAt, stored!.scheduledEndAt],
      [T + 2 * HOUR_MS, T + 4 * HOUR_MS],
    );
    equal(applySnapshot(db, id, snapshot([upgrade]), T + 60_000).length, 0, "nothing moved");
    const moved = applySnapshot(
      db,
      id,
      snapshot([{ ...upgrade, scheduledEndAt: T + 5 * HOUR_MS }]),
      T + 120_000,
    );
    deepStrictEqual(moved.map((c) => [c.kind, c.kind === "incident" && c.incidentId]), [
      ["incident", "m-1"],
    ]);
    equal(listIncidentRows(db, {}, { page: 0, limit: 1 })[0]!.scheduledEndAt, T + 5 * HOUR_MS);
  } finally {
    db.close();
  }
});

Deno.test("maintenances: in progress or starting before an instant; recently completed on request", () => {
  const { db, id } = acme();
  try {
    const later = {
      ...upgrade,
      externalId: "m-2",
      title: "Network work",
      startedAt: T + 30 * HOUR_MS,
      scheduledStartAt: T + 30 * HOUR_MS,
      scheduledEndAt: T + 31 * HOUR_MS,
    };
    const now = { ...upgrade, externalId: "m-3", title: "Now", status: "IN_PROGRESS" as const };
    const incident: IncidentSnapshot = {
      ...upgrade,
      externalId: "i-1",
      title: "Errors",
      status: "INVESTIGATING",
      impact: "MINOR",
      scheduledStartAt: undefined,
      scheduledEndAt: undefined,
    };
    applySnapshot(db, id, snapshot([later, upgrade, now, incident]), T);
    const titles = (f: Parameters<typeof listMaintenanceRows>[1]) =>
      listMaintenanceRows(db, f).map((m) => m.title);
    deepStrictEqual(titles({ limit: 10 }), ["Database upgrade", "Now", "Network work"]);
    deepStrictEqual(titles({ limit: 10, startsBefore: T + HOUR_MS }), ["Now"]);
    deepStrictEqual(titles({ limit: 10, startsBefore: T + 3 * HOUR_MS }), [
      "Database upgrade",
      "Now",
    ]);
    deepStrictEqual(
      titles({ limit: 10, startsBefore: T + 5 * HOUR_MS, endsAfter: T + 4 * HOUR_MS + 1 }),
      ["Now"],
      "still SCHEDULED after its announced end: stale, not due; IN_PROGRESS stays",
    );
    deepStrictEqual(titles({ limit: 10, services: ["other"] }), []);
    deepStrictEqual(titles({ limit: 10, provider: "acme", startsBefore: T }), ["Now"]);
    // The page drops "Now" (Statuspage summaries omit finished maintenance): it is COMPLETED.
    applySnapshot(db, id, snapshot([later, upgrade, incident]), T + HOUR_MS);
    deepStrictEqual(titles({ limit: 10 }), ["Database upgrade", "Network work"]);
    deepStrictEqual(titles({ limit: 10, finishedSince: T }), [
      "Database upgrade",
      "Now",
      "Network work",
    ]);
  } finally {
    db.close();
  }
});

Deno.test("migration 8 adds the window columns over a version-4 database, keeping incidents", () => {
  const dir = Deno.makeTempDirSync({ prefix: "statusd-test-" });
  const path = join(dir, "statusd.db");
  try {
    const old = openDb(path);
    deepStrictEqual(migrate(old, MIGRATIONS.filter((m) => m.version <= 4)), [1, 2, 3, 4]);
    old.exec(
      `INSERT INTO vendors (slug, name, status_page_url, platform, category, provider)
         VALUES ('acme', 'Acme', 'https://status.acme.test', 'statuspage', 'other', 'acme');
       INSERT INTO incidents (vendor_id, external_id, title, status, impact, started_at, updated_at)
         VALUES (1, 'm-0', 'Old maintenance', 'SCHEDULED', 'MAINTENANCE', ${T}, ${T});`,
    );
    old.close();
    const db = openStore(path);
    try {
      const [m] = listMaintenanceRows(db, { limit: 10 });
      deepStrictEqual(
        [m!.title, m!.startedAt, m!.scheduledStartAt, m!.scheduledEndAt],
        ["Old maintenance", T, null, null],
      );
      deepStrictEqual(migrate(db), [], "applied once");
    } finally {
      db.close();
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
