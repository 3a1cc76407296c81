/**
 * Conformance: `store.catalog` (sync and every read of services).
 * @module
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import type { Case } from "./_support.ts";
import {
  ALL_TIME,
  component,
  DAY,
  incident,
  MIN,
  read,
  snapshot,
  success,
  T,
  vendor,
  withVendors,
} from "./_support.ts";

export const catalogCases: Case[] = [
  {
    name: "catalog.sync adds, updates and retires vendors by slug, keeping retired data",
    async run(store) {
      deepStrictEqual(await store.catalog.sync([vendor("a"), vendor("b")], T), {
        added: 2,
        updated: 0,
        unchanged: 0,
        retired: 0,
      });
      const b = (await store.catalog.service("b"))!.id;
      await read(store, b, snapshot("MAJOR_OUTAGE"), T);
      deepStrictEqual(
        await store.catalog.sync([vendor("a", { name: "A!" }), vendor("c")], T + 1),
        { added: 1, updated: 1, unchanged: 0, retired: 1 },
      );
      equal((await store.catalog.service("a"))?.name, "A!");
      equal(await store.catalog.service("b"), null, "a retired vendor is not a catalog service");
      deepStrictEqual((await store.catalog.names()).map((n) => n.slug), ["a", "c"]);
      deepStrictEqual(
        await store.catalog.sync([vendor("a", { name: "A!" }), vendor("c")], T + 2),
        { added: 0, updated: 0, unchanged: 2, retired: 0 },
      );
      // Back in the catalog: its history kept.
      await store.catalog.sync([vendor("a", { name: "A!" }), vendor("b"), vendor("c")], T + 3);
      equal((await store.catalog.service("b"))?.currentStatus, "MAJOR_OUTAGE");
    },
  },
  {
    name:
      "catalog.sync: a new page URL resets detection, endpoint, validators and health, and makes the vendor due",
    async run(store) {
      const { a } = await withVendors(store, [vendor("a", { platform: "unknown" })]);
      await store.polls.setDetectedPlatform(a!, "statuspage");
      await store.polls.setEndpoint(a!, "https://api.a.test/x");
      await store.polls.recordSuccess(
        a!,
        snapshot("OPERATIONAL"),
        { ...success(T), etag: '"e1"', nextPollAt: T + DAY },
      );
      await store.polls.recordFailure(a!, {
        at: T + MIN,
        latencyMs: 5,
        httpStatus: 404,
        nextPollAt: T + DAY,
        deadlineAt: T + DAY,
        outcome: "http_status",
        detail: "HTTP 404",
        stale: false,
        platformMiss: true,
      });
      equal((await store.polls.claimDue(T + 2 * MIN, 10)).length, 0);
      await store.catalog.sync(
        [vendor("a", { platform: "unknown", statusPageUrl: "https://a.test/new" })],
        T + 2 * MIN,
      );
      const [due] = await store.polls.claimDue(T + 2 * MIN, 10);
      deepStrictEqual(
        {
          statusPageUrl: due!.statusPageUrl,
          detectedPlatform: due!.detectedPlatform,
          endpointUrl: due!.endpointUrl,
          etag: due!.etag,
          failures: due!.failures,
          platformMisses: due!.platformMisses,
          nextPollAt: due!.nextPollAt,
          deadlineAt: due!.deadlineAt,
        },
        {
          statusPageUrl: "https://a.test/new",
          detectedPlatform: null,
          endpointUrl: null,
          etag: null,
          failures: 0,
          platformMisses: 0,
          nextPollAt: T + 2 * MIN,
          deadlineAt: 0,
        },
      );
      equal((await store.catalog.service("a"))!.reading.error, null);
    },
  },
  {
    name:
      "catalog.page filters with AND, orders by name (any case) then slug, pages, and counts the total",
    async run(store) {
      const ids = await withVendors(store, [
        vendor("google-cloud", { name: "Google Cloud", category: "cloud", provider: "google" }),
        vendor("google-workspace", {
          name: "google Workspace",
          category: "productivity",
          provider: "google",
        }),
        vendor("aws", { name: "AWS", category: "cloud", provider: "amazon" }),
        vendor("zeta", { name: "zeta" }),
      ]);
      await read(store, ids["google-workspace"]!, snapshot("MAJOR_OUTAGE"), T);
      await read(store, ids.aws!, snapshot("MAJOR_OUTAGE"), T);
      const slugs = async (
        filter: Parameters<typeof store.catalog.page>[0],
        page = 0,
        limit = 10,
      ) => {
        const r = await store.catalog.page(filter, { page, limit }, ALL_TIME);
        return { slugs: r.rows.map((x) => x.service.slug), total: r.total };
      };
      deepStrictEqual(await slugs({}), {
        slugs: ["aws", "google-cloud", "google-workspace", "zeta"],
        total: 4,
      });
      deepStrictEqual(await slugs({ status: "MAJOR_OUTAGE" }), {
        slugs: ["aws", "google-workspace"],
        total: 2,
      });
      deepStrictEqual((await slugs({ category: "cloud" })).slugs, ["aws", "google-cloud"]);
      deepStrictEqual(
        (await slugs({ provider: "google", status: "MAJOR_OUTAGE" })).slugs,
        ["google-workspace"],
      );
      deepStrictEqual(await slugs({}, 1, 3), { slugs: ["zeta"], total: 4 });
      deepStrictEqual(await slugs({}, 9, 3), { slugs: [], total: 4 });
    },
  },
  {
    name: "catalog.page filters by reading state at staleBefore",
    async run(store) {
      const ids = await withVendors(store, [
        vendor("fresh"),
        vendor("stale"),
        vendor("failing"),
        vendor("never"),
        vendor("page", { platform: "html" }),
      ]);
      await read(store, ids.fresh!, snapshot("OPERATIONAL"), T);
      await read(store, ids.stale!, snapshot("OPERATIONAL"), T - 2 * DAY);
      await store.polls.recordFailure(ids.failing!, {
        at: T,
        latencyMs: 1,
        httpStatus: 500,
        nextPollAt: T + MIN,
        deadlineAt: T + MIN,
        outcome: "http_status",
        detail: "HTTP 500",
        stale: true,
        platformMiss: false,
      });
      const state = async (reading: "fresh" | "stale" | "failing" | "never_read" | "unsupported") =>
        (await store.catalog.page(
          { reading, staleBefore: T - DAY },
          { page: 0, limit: 10 },
          ALL_TIME,
        ))
          .rows.map((r) => r.service.slug);
      deepStrictEqual(await state("fresh"), ["fresh"]);
      deepStrictEqual(await state("stale"), ["stale"]);
      deepStrictEqual(await state("failing"), ["failing"]);
      deepStrictEqual(await state("never_read"), ["never"]);
      deepStrictEqual(await state("unsupported"), ["page"]);
    },
  },
  {
    name:
      "catalog rows carry transitions over the window: the last one before it through the first after it",
    async run(store) {
      const { a, b } = await withVendors(store, [vendor("a"), vendor("b")]);
      await read(store, a!, snapshot("OPERATIONAL"), T - 10 * DAY);
      await read(store, a!, snapshot("MAJOR_OUTAGE"), T - 5 * DAY);
      await read(store, a!, snapshot("OPERATIONAL"), T - 4 * DAY);
      await read(store, a!, snapshot("PARTIAL_OUTAGE"), T + DAY);
      await read(store, a!, snapshot("OPERATIONAL"), T + 2 * DAY);
      const window = { start: T - 6 * DAY, end: T };
      const { rows } = await store.catalog.page({}, { page: 0, limit: 10 }, window);
      deepStrictEqual(rows.map((r) => [r.service.slug, r.transitions]), [
        ["a", [
          { at: T - 10 * DAY, from: "UNKNOWN", to: "OPERATIONAL" },
          { at: T - 5 * DAY, from: "OPERATIONAL", to: "MAJOR_OUTAGE" },
          { at: T - 4 * DAY, from: "MAJOR_OUTAGE", to: "OPERATIONAL" },
          { at: T + DAY, from: "OPERATIONAL", to: "PARTIAL_OUTAGE" },
        ]],
        ["b", []],
      ]);
      const byIds = await store.catalog.byIds([b!, 999_999, a!], window);
      deepStrictEqual(byIds.map((r) => [r.service.slug, r.transitions.length]), [["b", 0], [
        "a",
        4,
      ]]);
    },
  },
  {
    name: "catalog.candidates lists what text search ranks on, filtered",
    async run(store) {
      await withVendors(store, [
        vendor("github", { name: "GitHub", domains: ["github.com", "githubstatus.com"] }),
        vendor("gitlab", { name: "GitLab", category: "devtools" }),
      ]);
      const all = await store.catalog.candidates({});
      deepStrictEqual(
        [...all].sort((x, y) => x.slug.localeCompare(y.slug)).map((
          c,
        ) => [c.slug, c.name, c.domains]),
        [["github", "GitHub", ["github.com", "githubstatus.com"]], ["gitlab", "GitLab", []]],
      );
      ok(all.every((c) => typeof c.id === "number"));
      deepStrictEqual(
        (await store.catalog.candidates({ category: "devtools" })).map((c) => c.slug),
        ["gitlab"],
      );
    },
  },
  {
    name:
      "catalog.detail reads the service, its current components in page order, and only open incidents",
    async run(store) {
      const { acme } = await withVendors(store, [vendor("acme", { name: "Acme" })]);
      await read(
        store,
        acme!,
        snapshot("OPERATIONAL", [
          component("web", "OPERATIONAL", { name: "Web", group: "Apps" }),
          component("api", "DEGRADED_PERFORMANCE", { name: "API" }),
          component("old"),
        ], [
          incident("i1", T - 2 * MIN, {
            componentIds: ["api", "missing"],
            updates: [
              { at: T - 2 * MIN, status: "INVESTIGATING", body: "Looking" },
              { at: T - MIN, status: "IDENTIFIED", body: "Found it" },
            ],
            status: "IDENTIFIED",
          }),
          incident("i0", T - DAY, { status: "RESOLVED", resolvedAt: T - DAY + MIN }),
        ]),
        T,
      );
      await read(
        store,
        acme!,
        snapshot("OPERATIONAL", [
          component("web", "OPERATIONAL", { name: "Web", group: "Apps" }),
          component("api", "DEGRADED_PERFORMANCE", { name: "API" }),
        ], [
          incident("i1", T - 2 * MIN, {
            componentIds: ["api", "missing"],
            updates: [
              { at: T - 2 * MIN, status: "INVESTIGATING", body: "Looking" },
              { at: T - MIN, status: "IDENTIFIED", body: "Found it" },
            ],
            status: "IDENTIFIED",
          }),
        ]),
        T + MIN,
      );
      const d = await store.catalog.detail("acme", { start: T - DAY, end: T + 2 * MIN }, 0);
      ok(d !== null);
      equal(d.service.name, "Acme");
      equal(d.service.currentStatus, "DEGRADED_PERFORMANCE");
      deepStrictEqual(d.components.map((c) => [c.name, c.group, c.status, c.updatedAt]), [
        ["Web", "Apps", "OPERATIONAL", T],
        ["API", null, "DEGRADED_PERFORMANCE", T],
      ]);
      ok(d.components.every((c) => typeof c.id === "string"));
      deepStrictEqual(d.incidents.map((i) => [i.title, i.status, i.components]), [
        ["Incident i1", "IDENTIFIED", ["API"]],
      ]);
      deepStrictEqual(d.incidents[0]!.updates.map((u) => u.body), ["Looking", "Found it"]);
      deepStrictEqual(d.transitions, [{ at: T, from: "UNKNOWN", to: "DEGRADED_PERFORMANCE" }]);
      equal(await store.catalog.detail("nope", ALL_TIME, 0), null);
      deepStrictEqual(
        (await store.catalog.detail("acme", ALL_TIME, 0))!.resolved,
        [{ status: "RESOLVED", impact: "MINOR", startedAt: T - DAY, resolvedAt: T - DAY + MIN }],
        "resolved since the instant asked for",
      );
      deepStrictEqual((await store.catalog.detail("acme", ALL_TIME, T))!.resolved, []);
    },
  },
  {
    name: "catalog.providers rolls services up per provider, with open incidents and history",
    async run(store) {
      const ids = await withVendors(store, [
        vendor("gc", { name: "Google Cloud", provider: "google" }),
        vendor("gw", { name: "Google Workspace", provider: "google" }),
        vendor("s3", { name: "S3", provider: "amazon" }),
      ]);
      await read(store, ids.gc!, snapshot("MAJOR_OUTAGE", [], [incident("x", T)]), T);
      await read(store, ids.gw!, snapshot("OPERATIONAL"), T);
      const rows = await store.catalog.providers({ start: T - DAY, end: T + MIN });
      deepStrictEqual(
        rows.map((r) => [r.provider, r.serviceNames, r.byStatus, r.activeIncidents]),
        [
          ["amazon", ["S3"], { UNKNOWN: 1 }, 0],
          ["google", ["Google Cloud", "Google Workspace"], { MAJOR_OUTAGE: 1, OPERATIONAL: 1 }, 1],
        ],
      );
      deepStrictEqual(rows[1]!.services.map((s) => [s.currentStatus, s.transitions.length]), [
        ["MAJOR_OUTAGE", 1],
        ["OPERATIONAL", 1],
      ]);
    },
  },
  {
    name:
      "catalog.lastModified is the later of the last status change and the last incident update",
    async run(store) {
      const ids = await withVendors(store, [vendor("a"), vendor("b"), vendor("c")]);
      await read(store, ids.a!, snapshot("OPERATIONAL"), T);
      await read(store, ids.a!, snapshot("MAJOR_OUTAGE"), T + MIN);
      await read(
        store,
        ids.b!,
        snapshot("OPERATIONAL", [], [incident("x", T - DAY, { updatedAt: T + 5 * MIN })]),
        T,
      );
      deepStrictEqual(await store.catalog.lastModified(), [
        { slug: "a", lastModified: T + MIN },
        { slug: "b", lastModified: T + 5 * MIN },
        { slug: "c", lastModified: null },
      ]);
    },
  },
  {
    name:
      "catalog.overview counts levels and reading states, lists disrupted services and open incidents",
    async run(store) {
      const ids = await withVendors(store, [
        vendor("a"),
        vendor("b"),
        vendor("c"),
        vendor("d"),
        vendor("e"),
      ]);
      await read(store, ids.a!, snapshot("MAJOR_OUTAGE", [], [incident("i1", T - MIN)]), T);
      await read(store, ids.b!, snapshot("DEGRADED_PERFORMANCE"), T);
      await read(store, ids.c!, snapshot("PARTIAL_OUTAGE"), T);
      await read(store, ids.d!, snapshot("OPERATIONAL", [], [incident("i2", T - 2 * MIN)]), T);
      const o = await store.catalog.overview({
        disrupted: ["MAJOR_OUTAGE", "PARTIAL_OUTAGE", "DEGRADED_PERFORMANCE"],
        perLevel: 10,
        incidents: 10,
        window: { start: T - DAY, end: T + MIN },
        staleBefore: T - DAY,
      });
      deepStrictEqual(o.byStatus, {
        OPERATIONAL: 1,
        UNDER_MAINTENANCE: 0,
        DEGRADED_PERFORMANCE: 1,
        PARTIAL_OUTAGE: 1,
        MAJOR_OUTAGE: 1,
        UNKNOWN: 1,
      });
      deepStrictEqual(o.readingStates, {
        fresh: 4,
        stale: 0,
        failing: 0,
        unsupported: 0,
        never_read: 1,
      });
      deepStrictEqual(o.disrupted.map((s) => s.service.slug), ["a", "c", "b"]);
      deepStrictEqual(o.disrupted[0]!.transitions.length, 1);
      deepStrictEqual(o.activeIncidents.map((i) => i.serviceSlug), ["a", "d"]);
    },
  },
];
