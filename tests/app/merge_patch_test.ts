/**
 * PATCH is merge-patch (RFC 7396): for a random rule, escalation policy, monitor, group or board
 * created with random fields, and a random subset of its fields patched with random values, every
 * field left out of the patch reads back unchanged and every patched one reads back as given
 * (fast-check, on the suite's store). A rename once reset a rule's routes, flags and minutes to
 * their defaults.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import {
  type Caller,
  createBoard,
  createEscalation,
  createGroup,
  createMonitor,
  createRoute,
  createRule,
  deleteBoard,
  deleteEscalation,
  deleteGroup,
  deleteMonitor,
  deleteRule,
  getBoard,
  getEscalation,
  getGroup,
  getMonitor,
  getRule,
  updateBoard,
  updateEscalation,
  updateGroup,
  updateMonitor,
  updateRule,
} from "../../app/mod.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";
import { Conflict, InvalidRequest, STATUS_LEVELS } from "../../domain/mod.ts";
import { account, testContext } from "../support/accounts.ts";
import { TEST_ENGINE } from "../support/store.ts";

/**
 * Histories per property: all of them on SQLite, where the model is proved; a third on
 * PostgreSQL, which runs the same verbs over the other engine (each history is a few hundred
 * round trips there).
 */
const runs = (n: number) => (TEST_ENGINE === "postgres" ? Math.ceil(n / 3) : n);

const RULE_FIELDS = {
  name: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() === s && s !== ""),
  level: fc.option(fc.constantFrom(...STATUS_LEVELS), { nil: null }),
  incidents: fc.boolean(),
  maintenance: fc.boolean(),
  forMinutes: fc.integer({ min: 0, max: 1440 }),
  failingMinutes: fc.option(fc.integer({ min: 1, max: 1440 }), { nil: null }),
  earlyWarning: fc.boolean(),
  recovery: fc.boolean(),
  enabled: fc.boolean(),
  usesRoute: fc.boolean(),
} as const;

type RuleFields = { [K in keyof typeof RULE_FIELDS]: fc.Arbitrary<unknown> };

function ruleInput(f: Record<string, unknown>, route: string) {
  const { usesRoute, ...rest } = f;
  return {
    ...rest,
    ...(usesRoute === undefined ? {} : { routes: usesRoute ? [route] : [] }),
  };
}

/** A record as JSON holds it, without what every update changes (fast-check's objects have no prototype). */
const view = (r: object): Record<string, unknown> => {
  const { updatedAt: _u, version: _v, ...rest } = JSON.parse(JSON.stringify(r));
  return rest;
};

Deno.test("every PATCH of an alert rule leaves what it does not name as it was", async () => {
  await using ctx = testContext();
  const who = await account(ctx, "owner@example.com");
  const admin: Caller = { kind: "admin", account: who.account };
  const route = (await createRoute(ctx, admin, {
    name: "r",
    settings: { kind: "slack", url: "https://hooks.example.com/services/x" },
  })).route.id;
  const fields = RULE_FIELDS as RuleFields;
  await fc.assert(
    fc.asyncProperty(
      // A rule watches something: a level, incidents, maintenance, failing readings or early
      // warnings.
      fc.record(fields).filter((c) =>
        c.level !== null || c.incidents === true || c.maintenance === true ||
        c.failingMinutes !== null || c.earlyWarning === true
      ),
      fc.record(fields, { requiredKeys: [] }),
      async (created, patch) => {
        const made = await createRule(ctx, admin, {
          ...ruleInput({ ...created, usesRoute: true }, route),
          target: { kind: "all" },
        });
        const before = view({ ...await getRule(ctx, admin, made.id) });
        const refused = await updateRule(ctx, admin, made.id, ruleInput(patch, route), null).then(
          () => false,
          (e) => {
            if (!(e instanceof InvalidRequest)) throw e;
            return true;
          },
        );
        const after = view({ ...await getRule(ctx, admin, made.id) });
        // A refused patch (a rule left with nowhere to send) changes nothing at all.
        deepStrictEqual(after, refused ? before : view({ ...before, ...ruleInput(patch, route) }));
        // Each history's rule goes again, so any number of runs stays within the account's limit.
        await deleteRule(ctx, admin, made.id, null);
      },
    ),
    { numRuns: runs(60) },
  );
});

Deno.test("every PATCH of an escalation policy leaves what it does not name as it was", async () => {
  await using ctx = testContext();
  const who = await account(ctx, "owner@example.com");
  const admin: Caller = { kind: "admin", account: who.account };
  const routes = [];
  for (const n of ["a", "b"]) {
    routes.push(
      (await createRoute(ctx, admin, {
        name: n,
        settings: { kind: "slack", url: `https://hooks.example.com/services/${n}` },
      })).route.id,
    );
  }
  const step = fc.record({
    routes: fc.subarray(routes, { minLength: 1 }),
    afterMinutes: fc.integer({ min: 0, max: 1440 }),
  });
  const fields = {
    name: RULE_FIELDS.name,
    steps: fc.array(step, { minLength: 1, maxLength: 3 }),
    repeat: fc.integer({ min: 0, max: 5 }),
  };
  await fc.assert(
    fc.asyncProperty(
      fc.record(fields),
      fc.record(fields, { requiredKeys: [] }),
      async (created, patch) => {
        const e = await createEscalation(ctx, admin, created);
        const before = view({ ...await getEscalation(ctx, admin, e.id) });
        await updateEscalation(ctx, admin, e.id, patch, null);
        const after = view({ ...await getEscalation(ctx, admin, e.id) });
        deepStrictEqual(after, view({ ...before, ...patch }));
        await deleteEscalation(ctx, admin, e.id, null);
      },
    ),
    { numRuns: runs(45) },
  );
});

Deno.test("every PATCH of a monitor, group or board leaves what it does not name as it was", async () => {
  await using ctx = testContext();
  await syncVendors(ctx.store, [vendorOf({ slug: "acme", name: "Acme" })], Date.now() - 86_400_000);
  await recordReading(ctx.store, "acme", {
    indicator: "OPERATIONAL",
    components: ["API", "Web", "EU"].map((name) => ({
      externalId: name,
      name,
      group: null,
      status: "OPERATIONAL" as const,
    })),
    incidents: [],
  }, Date.now() - 60_000);
  const who = await account(ctx, "owner@example.com");
  const admin: Caller = { kind: "admin", account: who.account };
  const label = fc.option(
    fc.string({ minLength: 1, maxLength: 20 }).filter((x) => x.trim() === x),
    {
      nil: null,
    },
  );
  const monitorFields = {
    components: fc.subarray(["API", "Web", "EU"]),
    label,
    slaTarget: fc.option(fc.integer({ min: 90, max: 100 }), { nil: null }),
    paused: fc.boolean(),
  };
  const monitors: string[] = [];
  await fc.assert(
    fc.asyncProperty(
      fc.record(monitorFields),
      fc.record(monitorFields, { requiredKeys: [] }),
      async (created, patch) => {
        let m;
        try {
          m = await createMonitor(ctx, admin, { service: "acme", ...created });
        } catch (err) {
          // The same components as a monitor kept from an earlier run: a 409, by rule.
          if (!(err instanceof Conflict)) throw err;
          const same = (x: readonly string[]) => [...x].sort().join();
          const kept = await Promise.all(
            monitors.slice(0, 5).map((id) => getMonitor(ctx, admin, id)),
          );
          ok(kept.some((k) => same(k.components) === same(created.components)), String(err));
          return;
        }
        monitors.push(m.id);
        const before = view({ ...await getMonitor(ctx, admin, m.id) });
        await updateMonitor(ctx, admin, m.id, patch, null);
        const after = view({ ...await getMonitor(ctx, admin, m.id) });
        const expected = view({ ...before, ...patch });
        // A monitor's level and health are computed from what it watches, not patched.
        for (const k of ["currentStatus", "history", "openIncidents", "uptime30d", "state"]) {
          delete expected[k];
          delete after[k];
        }
        deepStrictEqual(after, expected);
        // The first five stay for the groups below; the others go.
        if (monitors.length > 5) await deleteMonitor(ctx, admin, m.id, null);
      },
    ),
    { numRuns: runs(30) },
  );
  const groupFields = {
    name: RULE_FIELDS.name,
    monitors: fc.subarray(monitors.slice(0, 5)),
  };
  await fc.assert(
    fc.asyncProperty(
      fc.record(groupFields),
      fc.record(groupFields, { requiredKeys: [] }),
      async (created, patch) => {
        const g = await createGroup(ctx, admin, created);
        const pick = (v: object) => {
          const { name, monitors, id, createdAt } = view(v) as Record<string, unknown>;
          return { name, monitors: (monitors as { id: string }[]).map((x) => x.id), id, createdAt };
        };
        const before = pick(await getGroup(ctx, admin, g.id));
        await updateGroup(ctx, admin, g.id, patch, null);
        deepStrictEqual(pick(await getGroup(ctx, admin, g.id)), { ...before, ...patch });
        await deleteGroup(ctx, admin, g.id, null);
      },
    ),
    { numRuns: runs(20) },
  );
  let n = 0;
  const boardFields = {
    title: RULE_FIELDS.name,
    public: fc.boolean(),
  };
  await fc.assert(
    fc.asyncProperty(
      fc.record(boardFields),
      fc.record({ ...boardFields, slug: fc.constant("") }, { requiredKeys: [] }),
      async (created, patch) => {
        const slug = `board-${n++}`;
        const b = await createBoard(ctx, admin, { slug, ...created });
        const change = patch.slug === undefined ? patch : { ...patch, slug: `${slug}-renamed` };
        const pick = (v: object) => {
          const { slug, title, public: open, id, createdAt } = view(v) as Record<string, unknown>;
          return { slug, title, public: open, id, createdAt };
        };
        const before = pick(await getBoard(ctx, admin, b.id));
        await updateBoard(ctx, admin, b.id, change, null);
        deepStrictEqual(pick(await getBoard(ctx, admin, b.id)), { ...before, ...change });
        await deleteBoard(ctx, admin, b.id, null);
      },
    ),
    { numRuns: runs(20) },
  );
});
