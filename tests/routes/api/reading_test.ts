/**
 * Reading health through REST, against vendors the real poller read from the simulator: each
 * error kind with its HTTP status, message and since; the notes a reading left out; an `html`
 * vendor reads unsupported; `?reading=` filters the catalog.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { READING_NOTES_MAX, READING_STATES, toIso } from "../../../domain/mod.ts";
import { DROPPED, FAILING, NOW, readingRig, T0 } from "../../support/reading_rig.ts";

type Json = Record<string, unknown>;
type ReadingJson = {
  state: string;
  summary: string;
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  consecutiveFailures: number;
  error: { kind: string; httpStatus: number | null; message: string; since: string } | null;
  notes: string[];
  redetection: unknown;
};

Deno.test("reading health through REST", async (t) => {
  const rig = await readingRig();
  const get = async (path: string) => {
    const res = await fetch(`${rig.url}${path}`);
    return { status: res.status, json: await res.json() as Json };
  };
  const reading = async (slug: string) =>
    (await get(`/api/services/${slug}`)).json.reading as ReadingJson;
  try {
    await t.step("each error kind: state failing, kind, HTTP status, message, since", async () => {
      for (const f of FAILING) {
        const r = await reading(f.slug);
        equal(r.state, "failing", f.slug);
        equal(r.consecutiveFailures, 2, f.slug);
        equal(r.error?.kind, f.kind, f.slug);
        equal(r.error?.httpStatus, f.httpStatus, f.slug);
        match(r.error!.message, f.message, f.slug);
        equal(r.error?.since, toIso(T0), `${f.slug}: failing since the first poll`);
        equal(r.lastAttemptAt, toIso(NOW), f.slug);
        equal(r.lastSuccessAt, null, f.slug);
        match(r.summary, /^failing: .* since 2026-11-20 12:00 UTC \(2 attempts in a row\)/);
        deepStrictEqual(r.notes, []);
      }
    });

    await t.step("a healthy vendor is fresh, with no error", async () => {
      const { json } = await get("/api/services/calm-co");
      equal(json.currentStatus, "OPERATIONAL");
      const r = json.reading as ReadingJson;
      equal(r.state, "fresh");
      equal(r.error, null);
      equal(r.consecutiveFailures, 0);
      equal(r.lastSuccessAt, toIso(T0));
      equal(r.summary, "fresh: read 2026-11-20 12:00 UTC");
    });

    await t.step("the notes of the latest reading, bounded", async () => {
      const r = await reading("notes-co");
      equal(r.state, "fresh");
      equal(r.notes.length, READING_NOTES_MAX);
      equal(r.notes[0], `${DROPPED[0]![0]}: ${DROPPED[0]![1]}`);
      equal(r.notes.at(-1), `… and ${DROPPED.length - READING_NOTES_MAX + 1} more notes not kept`);
    });

    await t.step("an html vendor reads unsupported, not 'checked never'", async () => {
      const { json } = await get("/api/services/okta-like");
      equal(json.platform, "html");
      equal(json.currentStatus, "UNKNOWN");
      const r = json.reading as ReadingJson;
      equal(r.state, "unsupported");
      equal(r.error, null);
      match(r.summary, /^unsupported: no machine-readable status/);
    });

    await t.step("a vendor not polled yet reads never_read", async () => {
      const r = await reading("new-co");
      equal(r.state, "never_read");
      equal(r.lastAttemptAt, null);
    });

    await t.step("?reading= filters the catalog, and list items carry reading", async () => {
      const slugsOf = async (state: string) =>
        ((await get(`/api/services?reading=${state}&limit=500`)).json.content as Json[])
          .map((s) => s.slug as string).sort();
      deepStrictEqual(await slugsOf("failing"), FAILING.map((f) => f.slug).sort());
      deepStrictEqual(await slugsOf("fresh"), ["calm-co", "notes-co"]);
      deepStrictEqual(await slugsOf("unsupported"), ["okta-like"]);
      deepStrictEqual(await slugsOf("never_read"), ["new-co"]);
      deepStrictEqual(await slugsOf("stale"), []);
      // The filter (SQL) and each item's state (domain) agree, and every service has one.
      const all = (await get("/api/services?limit=500")).json.content as Json[];
      let listed = 0;
      for (const state of READING_STATES) {
        const items = (await get(`/api/services?reading=${state}&limit=500`)).json
          .content as Json[];
        for (const s of items) equal((s.reading as ReadingJson).state, state, String(s.slug));
        listed += items.length;
      }
      equal(listed, all.length);
      const combined = await get("/api/services?reading=failing&q=err");
      deepStrictEqual((combined.json.content as Json[]).map((s) => s.slug), ["err-co"]);
      const bad = await get("/api/services?reading=broken");
      equal(bad.status, 400);
      equal((bad.json.issues as Json[])[0]!.parameter, "reading");
    });

    await t.step("OpenAPI declares the reading, its states and the filter", async () => {
      const doc = (await get("/openapi.json")).json as {
        components: { schemas: Record<string, Json> };
        paths: Record<string, Record<string, { parameters?: Json[] }>>;
      };
      const schemas = doc.components.schemas;
      deepStrictEqual(schemas.ReadingState!.enum, [...READING_STATES]);
      for (const state of READING_STATES) {
        ok(String(schemas.ReadingState!.description).includes(`\`${state}\``), state);
      }
      ok(Object.keys(schemas.Reading!.properties as Json).includes("consecutiveFailures"));
      ok((schemas.Service!.required as string[]).includes("reading"));
      const params = doc.paths["/api/services"]!.get!.parameters!;
      ok(params.some((p) => p.name === "reading"));
    });
  } finally {
    await rig.close();
  }
});
