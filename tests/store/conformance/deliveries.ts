/**
 * Conformance cases for `store.deliveries` and `store.alertRoutes` (issue #13).
 * @module
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import type { AlertMessage, NewDelivery } from "../../../domain/mod.ts";
import { accountOf, memberOf } from "./accounts.ts";
import type { Case } from "./_support.ts";
import { T } from "./_support.ts";

/** A message as a delivery carries it (what it says matters to no case). */
export const message: AlertMessage = {
  notificationId: "n1",
  trigger: "test",
  summary: "Test from statusd",
  level: "OPERATIONAL",
  previousLevel: null,
  service: null,
  components: [],
  componentsTotal: 0,
  incident: null,
  timeToResolve: null,
  advice: "Nothing to do.",
  links: {},
  sentBecause: "route hooks",
  at: T,
};

/** A delivery of rule_1 about monitor m1 on route rt_1, with `over`. */
export function delivery(id: string, over: Partial<NewDelivery> = {}): NewDelivery {
  return {
    id,
    accountId: "a1",
    routeId: "rt_1",
    source: { kind: "rule", id: "rule_1" },
    changeId: 7,
    notificationId: "n1",
    subject: "monitor:m1",
    step: 0,
    recovery: false,
    message,
    notBefore: T,
    createdAt: T,
    ...over,
  };
}

export const deliveryCases: readonly Case[] = [
  {
    name: "deliveries: enqueue is idempotent by id and moves the cursor only from where it was",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      const d = store.deliveries;
      equal(await d.cursor("evaluator"), null);
      deepStrictEqual(
        await d.enqueue([delivery("d1"), delivery("d2")], {
          cursor: { name: "evaluator", from: 0, to: 7 },
        }),
        { inserted: 2 },
      );
      equal(await d.cursor("evaluator"), 7);
      equal(
        await d.enqueue([delivery("d3")], { cursor: { name: "evaluator", from: 0, to: 9 } }),
        "stale_cursor",
      );
      equal((await d.list("a1", {}, { page: 0, limit: 10 })).total, 2, "nothing of a stale one");
      deepStrictEqual(await d.enqueue([delivery("d1")]), { inserted: 0 }, "a stored id is skipped");
      deepStrictEqual(
        (await d.openNotifications("rule_1", "monitor:m1")).map((x) => x.id).sort(),
        ["d1", "d2"],
      );
      await d.enqueue([], { cancel: { notificationIds: ["n1"], state: "cancelled", dueAfter: T } });
      equal(
        (await d.list("a1", { state: "cancelled" }, { page: 0, limit: 10 })).total,
        0,
        "due by T: they still go",
      );
      await d.enqueue([], {
        cancel: { notificationIds: ["n1"], state: "cancelled", dueAfter: T - 1 },
      });
      equal((await d.list("a1", { state: "cancelled" }, { page: 0, limit: 10 })).total, 2);
      equal((await d.latestFor("rule_1", "monitor:m1"))!.state, "cancelled");
    },
  },
  {
    name: "deliveries: due ones are claimed once under a lease, finished with their attempts",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      await store.accounts.create(accountOf("a2"), memberOf("m2", "a2", "two@x.test"));
      const d = store.deliveries;
      await d.enqueue([
        delivery("now", { notificationId: "x1" }),
        delivery("later", { notificationId: "x2", notBefore: T + 60_000 }),
      ]);
      const first = await d.claimDue(T, 10, "w1", 30_000);
      deepStrictEqual(first.map((x) => x.id), ["now"]);
      deepStrictEqual(first[0]!.message, message);
      deepStrictEqual(await d.claimDue(T + 1, 10, "w2", 30_000), [], "leased to w1");
      equal(
        await d.finish("now", "w2", {
          n: 1,
          at: T + 2,
          ok: true,
          status: 200,
          reply: "ok",
          latencyMs: 5,
          error: null,
        }, { state: "delivered", notBefore: T + 2, error: null }),
        false,
        "only the holder finishes",
      );
      ok(
        await d.finish("now", "w1", {
          n: 1,
          at: T + 2,
          ok: false,
          status: 503,
          reply: "busy",
          latencyMs: 12.4,
          error: "HTTP 503",
        }, { state: "pending", notBefore: T + 10_000, error: "HTTP 503" }),
      );
      deepStrictEqual(await d.claimDue(T + 5_000, 10, "w2", 30_000), [], "backing off");
      const again = await d.claimDue(T + 10_000, 10, "w2", 30_000);
      deepStrictEqual(again.map((x) => x.id), ["now"]);
      await d.finish("now", "w2", {
        n: 2,
        at: T + 10_001,
        ok: true,
        status: 204,
        reply: null,
        latencyMs: 3,
        error: null,
      }, { state: "delivered", notBefore: T + 10_001, error: null });
      const got = (await d.get("a1", "now"))!;
      equal(got.delivery.state, "delivered");
      equal(got.delivery.attempts, 2);
      deepStrictEqual(got.attempts.map((a) => [a.n, a.ok, a.status, a.latencyMs]), [
        [1, false, 503, 12],
        [2, true, 204, 3],
      ]);
      equal(await d.get("a2", "now"), null, "another account's is not found");
      equal(await d.acknowledge("x2", T), 1, "a pending one is acknowledged");
      deepStrictEqual(await d.claimDue(T + 120_000, 10, "w1", 30_000), []);
      const back = (await d.redeliver("a1", "now", T + 130_000))!;
      equal(back.state, "pending");
      equal(await d.redeliver("a2", "now", T), null);
      deepStrictEqual((await d.claimDue(T + 130_000, 10, "w1", 30_000)).map((x) => x.id), ["now"]);
      deepStrictEqual(
        (await d.list("a1", {}, { page: 0, limit: 1 })).items.length,
        1,
      );
    },
  },
  {
    name:
      "deliveries: ending an alert stops all it has not sent but the one being sent; that one is not retried after the recovery",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      const d = store.deliveries;
      const attempt = (n: number, at: number, ok: boolean) => ({
        n,
        at,
        ok,
        status: ok ? 200 : 503,
        reply: null,
        latencyMs: 1,
        error: ok ? null : "HTTP 503",
      });
      await d.enqueue([
        delivery("sent", { routeId: "r1" }),
        delivery("retrying", { routeId: "r2" }),
        delivery("flying", { routeId: "r3" }),
        delivery("held", { routeId: "r4", notBefore: T + 60_000 }),
        delivery("other", { routeId: "r5", notificationId: "n2" }),
      ]);
      const claimed = await d.claimDue(T, 10, "w1", 120_000);
      equal(claimed.length, 4, "the four routes due now");
      ok(
        await d.finish("sent", "w1", attempt(1, T, true), {
          state: "delivered",
          notBefore: T,
          error: null,
        }),
      );
      ok(
        await d.finish("retrying", "w1", attempt(1, T, false), {
          state: "pending",
          notBefore: T + 30_000,
          error: "HTTP 503",
        }),
      );
      const mine = await d.ofNotification("n1");
      deepStrictEqual(mine.map((x) => [x.id, x.state, x.attempts]), [
        ["sent", "delivered", 1],
        ["retrying", "pending", 1],
        ["flying", "pending", 0],
        ["held", "pending", 0],
      ]);
      equal(mine.find((x) => x.id === "flying")!.claimedUntil, T + 120_000);
      equal(mine.find((x) => x.id === "held")!.claimedUntil, null);
      await d.enqueue([delivery("recovery", { routeId: "r3", recovery: true })], {
        end: { notificationIds: ["n1"], at: T + 1_000 },
      });
      const after = new Map((await d.ofNotification("n1")).map((x) => [x.id, x.state]));
      deepStrictEqual(Object.fromEntries(after), {
        sent: "delivered",
        retrying: "cancelled",
        flying: "pending",
        held: "cancelled",
        recovery: "pending",
      });
      equal((await d.get("a1", "other"))!.delivery.state, "pending", "another notification stays");
      // The one in flight fails: with its alert ended, it is not tried again.
      ok(
        await d.finish("flying", "w1", attempt(1, T + 2_000, false), {
          state: "pending",
          notBefore: T + 32_000,
          error: "HTTP 503",
        }),
      );
      equal((await d.get("a1", "flying"))!.delivery.state, "cancelled");
      deepStrictEqual(
        (await d.claimDue(T + 40_000, 10, "w1", 120_000)).map((x) => x.id).sort(),
        ["recovery"],
      );
    },
  },
  {
    name: "deliveries: claims are fair: route heads, one per route, a few per account, in turn",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      await store.accounts.create(accountOf("a2"), memberOf("m2", "a2", "two@x.test"));
      const d = store.deliveries;
      const ok1 = {
        n: 1,
        at: T + 1,
        ok: true,
        status: 200,
        reply: null,
        latencyMs: 1,
        error: null,
      };
      // a1 queues 3 deliveries on each of 6 routes before a2 queues one.
      const mine = Array.from({ length: 18 }, (_, i) =>
        delivery(`a1_${i}`, {
          routeId: `rt_${i % 6}`,
          notificationId: `n_${i}`,
          notBefore: T - 1_000 + i,
          createdAt: T - 1_000 + i,
        }));
      await d.enqueue(mine);
      await d.enqueue([
        delivery("a2_0", { accountId: "a2", routeId: "rt_x", notificationId: "m_0" }),
      ]);
      const first = await d.claimDue(T, 3, "w1", 30_000);
      deepStrictEqual(first.map((x) => x.id).sort(), ["a1_0", "a1_1", "a2_0"], "a2 in turn");
      const second = await d.claimDue(T, 10, "w1", 30_000);
      deepStrictEqual(
        second.map((x) => x.id).sort(),
        ["a1_2", "a1_3"],
        "heads of idle routes only, up to 4 live per account",
      );
      deepStrictEqual(await d.claimDue(T, 10, "w2", 30_000), [], "every route or account busy");
      equal(await d.extendLease(["a1_0", "a2_0", "a1_5"], "w1", T + 90_000), 2, "held ones only");
      equal(await d.extendLease(["a1_0"], "w2", T + 90_000), 0, "not another holder's");
      ok(await d.finish("a1_0", "w1", ok1, { state: "delivered", notBefore: T + 1, error: null }));
      deepStrictEqual(
        (await d.claimDue(T + 2, 10, "w1", 30_000)).map((x) => x.id),
        ["a1_4"],
        "the one freed slot of a1 goes to its earliest idle route's head",
      );
      // Past the leases a crashed worker held (a2_0's was renewed):
      const later = await d.claimDue(T + 40_000, 10, "w2", 30_000);
      deepStrictEqual(
        later.map((x) => x.id).sort(),
        ["a1_1", "a1_2", "a1_3", "a1_4"],
        "expired leases are claimed again, still route heads",
      );
    },
  },
  {
    name: "alert routes: account documents of their own kind",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      const r = store.alertRoutes;
      const made = await r.create({
        id: "rt_1",
        accountId: "a1",
        name: "hooks",
        settings: { kind: "webhook", url: "https://example.com/h", secret: "whsec_x" },
        paused: null,
        failuresInARow: 0,
        createdAt: T,
      }, 5);
      ok(typeof made === "object");
      equal((await store.groups.list("a1", { page: 0, limit: 10 })).total, 0, "not a group");
      const up = await r.update("a1", "rt_1", { name: "renamed" }, T + 1, 1);
      ok(up !== null && typeof up === "object");
      deepStrictEqual([up.name, up.version, up.paused, up.failuresInARow], ["renamed", 2, null, 0]);
    },
  },
  {
    name:
      "alert routes: health is its own row: outcomes count atomically, pause once, never bump the version",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      const r = store.alertRoutes;
      await r.create({
        id: "rt_1",
        accountId: "a1",
        name: "hooks",
        settings: { kind: "webhook", url: "https://example.com/h", secret: "whsec_x" },
        paused: null,
        failuresInARow: 0,
        createdAt: T,
      }, 5);
      const fail = (at: number) =>
        r.recordOutcome("a1", "rt_1", { ok: false, at, pauseAfter: 3, reason: `failed at ${at}` });
      // Two instances recording at once each count theirs.
      const [a, b] = await Promise.all([fail(T + 1), fail(T + 2)]);
      deepStrictEqual([a!.failuresInARow, b!.failuresInARow].sort(), [1, 2]);
      const third = await fail(T + 3);
      deepStrictEqual(third, {
        failuresInARow: 3,
        paused: { since: T + 3, reason: `failed at ${T + 3}` },
        pausedNow: true,
      });
      const fourth = await fail(T + 4);
      equal(fourth!.pausedNow, false, "paused once");
      deepStrictEqual(fourth!.paused, third!.paused);
      const got = (await r.get("a1", "rt_1"))!;
      deepStrictEqual([got.version, got.failuresInARow, got.paused], [1, 4, third!.paused]);
      equal(
        (await r.update("a1", "rt_1", { name: "x" }, T + 5, 1)) !== "conflict",
        true,
        "the owner's If-Match still holds",
      );
      equal(await r.resume("a1", "rt_1"), true);
      deepStrictEqual(
        [(await r.get("a1", "rt_1"))!.paused, (await r.get("a1", "rt_1"))!.failuresInARow],
        [null, 0],
      );
      const ok1 = await r.recordOutcome("a1", "rt_1", {
        ok: true,
        at: T + 6,
        pauseAfter: 3,
        reason: "",
      });
      deepStrictEqual(ok1, { failuresInARow: 0, paused: null, pausedNow: false });
      equal(
        await r.recordOutcome("a1", "nope", { ok: false, at: T, pauseAfter: 3, reason: "" }),
        null,
      );
      equal(await r.resume("a2", "rt_1"), false, "another account's");
      equal(await r.delete("a1", "rt_1", null), true);
      deepStrictEqual((await r.list("a1", { page: 0, limit: 10 })).total, 0);
    },
  },
];
