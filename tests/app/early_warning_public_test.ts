/**
 * Property: no sequence of actions by one account (its people, keys and apps, monitors made
 * long ago or now), or by any number of FREE accounts made that day, changes what an anonymous
 * caller sees of a vendor (its early warning, its acknowledgement grade) or what another
 * account's early-warning rule hears, whatever statusd's probes say short of failing.
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import fc from "fast-check";
import {
  type Caller,
  createMonitor,
  createRoute,
  createRule,
  evaluateWarnings,
  ownEyesOf,
  reportTrouble,
} from "../../app/mod.ts";
import { DAY_MS, HOUR_MS, MINUTE_MS, type Scope } from "../../domain/mod.ts";
import { account, testContext } from "../support/accounts.ts";
import { syncVendors, vendorOf } from "../support/seed.ts";
import { probeEveryVendor } from "../support/warnings.ts";

const T = Date.UTC(2026, 10, 20, 9);
const VENDORS = ["acme", "bolt"] as const;

type Action =
  | { kind: "report"; actor: number; by: number; vendor: number; component: boolean }
  | { kind: "monitor"; actor: number; vendor: number }
  | { kind: "wait"; minutes: number; probes: "ok" | "none" };

/** Who may act: the one account, or that day's FREE accounts. */
type Cast = { kind: "one"; standing: boolean } | { kind: "free"; accounts: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("report" as const),
      actor: fc.nat(5),
      by: fc.nat(3),
      vendor: fc.nat(VENDORS.length - 1),
      component: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("monitor" as const),
      actor: fc.nat(5),
      vendor: fc.nat(VENDORS.length - 1),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("wait" as const),
      minutes: fc.integer({ min: 1, max: 90 }),
      probes: fc.constantFrom<"ok" | "none">("ok", "none"),
    }),
  },
);

const cast: fc.Arbitrary<Cast> = fc.oneof(
  fc.record({ kind: fc.constant("one" as const), standing: fc.boolean() }),
  fc.record({ kind: fc.constant("free" as const), accounts: fc.integer({ min: 1, max: 6 }) }),
);

/** The callers of one account: a person, keys and apps of it, told apart as reporters are. */
function reportersOf(m: Awaited<ReturnType<typeof account>>): Caller[] {
  const scopes: Scope[] = ["monitors:write"];
  return [
    { kind: "session", account: m.account, member: m.member },
    { kind: "api_key", account: m.account, keyId: "k1", scopes },
    { kind: "api_key", account: m.account, keyId: "k2", scopes },
    { kind: "oauth", account: m.account, clientId: "app", scopes, resource: "x" },
  ];
}

async function play(c: Cast, actions: readonly Action[]) {
  let now = T - 10 * DAY_MS;
  await using ctx = testContext({ clock: { now: () => now } });
  await syncVendors(ctx.store, VENDORS.map((slug) => vendorOf({ slug })), now);
  // A bystander with an early-warning rule on every vendor, for a month.
  const bystander = await account(ctx, "bystander@example.test");
  const admin: Caller = { kind: "admin", account: bystander.account };
  for (const slug of VENDORS) await createMonitor(ctx, admin, { service: slug });
  const route = (await createRoute(ctx, admin, {
    name: "hook",
    settings: { kind: "webhook", url: "http://127.0.0.1:9/hook" },
  })).route;
  await createRule(ctx, admin, {
    name: "Own eyes",
    target: { kind: "all" },
    level: null,
    earlyWarning: true,
    routes: [route.id],
  });
  const cast: Caller[][] = [];
  if (c.kind === "one") {
    if (!c.standing) now = T;
    const m = await account(ctx, "one@example.test", "TEAM");
    for (const slug of VENDORS) await createMonitor(ctx, reportersOf(m)[0]!, { service: slug });
    cast.push(reportersOf(m));
  } else {
    now = T - HOUR_MS;
    for (let i = 0; i < c.accounts; i++) {
      cast.push(reportersOf(await account(ctx, `free${i}@example.test`, "FREE")));
    }
  }
  now = T;
  const baseline = async () => {
    const out = [];
    for (const slug of VENDORS) {
      const eyes = await ownEyesOf(ctx, slug);
      out.push({ warning: eyes.earlyWarning, episodes: eyes.trackRecord.episodes });
    }
    await evaluateWarnings(ctx);
    const heard = (await ctx.store.deliveries.list(bystander.account.id, {}, {
      page: 0,
      limit: 1,
    })).total;
    return { out, heard };
  };
  const quiet = await baseline();
  for (const a of actions) {
    const people = cast[a.kind === "wait" ? 0 : a.actor % cast.length]!;
    if (a.kind === "report") {
      try {
        await reportTrouble(ctx, people[a.by % people.length]!, {
          service: VENDORS[a.vendor]!,
          ...(a.component ? { component: "API" } : {}),
          note: "not working",
        });
      } catch (err) {
        equal((err as Error).name, "RateLimited");
      }
    } else if (a.kind === "monitor") {
      try {
        await createMonitor(ctx, people[0]!, { service: VENDORS[a.vendor]! });
      } catch {
        // Already monitored, or past a FREE account's limit: nothing changes.
      }
    } else {
      for (let m = 0; m < a.minutes; m += 5) {
        now += 5 * MINUTE_MS;
        await probeEveryVendor(ctx.store, now, a.probes);
      }
    }
    await probeEveryVendor(ctx.store, now, "none");
    deepStrictEqual(await baseline(), quiet);
  }
  // A day on, every episode would be final: still nothing in the grade.
  now += 2 * DAY_MS;
  await probeEveryVendor(ctx.store, now, "ok");
  deepStrictEqual(await baseline(), quiet);
}

Deno.test("property: one account, or any number of FREE accounts made that day, changes nothing anyone else sees", async () => {
  await fc.assert(
    fc.asyncProperty(cast, fc.array(action, { minLength: 1, maxLength: 25 }), play),
    { numRuns: Number(Deno.env.get("STATUSD_MODEL_RUNS") ?? 30) },
  );
});
