/**
 * Conformance cases for what the alert evaluator reads to work from what changed (issue #28):
 * who watches a service (`monitors.watching`), the rules and subscriptions of some accounts,
 * the services failing to read (`catalog.failing`), and the reading alerts still open
 * (`deliveries.unresolved`).
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import type { NewDelivery, NewMonitor, NewRule } from "../../../domain/mod.ts";
import { accountOf, memberOf } from "./accounts.ts";
import type { Case } from "./_support.ts";
import { delivery as anyDelivery } from "./deliveries.ts";
import { failure } from "./polls.ts";
import { MIN, T, vendor, withVendors } from "./_support.ts";

function monitor(id: string, accountId: string, slug: string, paused = false): NewMonitor {
  return {
    id,
    accountId,
    serviceSlug: slug,
    components: [],
    label: null,
    slaTarget: null,
    paused,
    createdAt: T,
  };
}

function rule(id: string, accountId: string, enabled = true): NewRule {
  return {
    id,
    accountId,
    name: id,
    target: { kind: "all" },
    level: "PARTIAL_OUTAGE",
    incidents: false,
    maintenance: false,
    forMinutes: 0,
    failingMinutes: null,
    recovery: true,
    routes: [],
    escalation: null,
    enabled,
    createdAt: T,
  };
}

/** A reading alert of rule r1 about monitor m1, its own notification, with `over`. */
function delivery(id: string, over: Partial<NewDelivery>): NewDelivery {
  return anyDelivery(id, {
    source: { kind: "rule", id: "r1" },
    changeId: null,
    notificationId: id,
    subject: "reading:m1",
    ...over,
  });
}

export const alertIndexCases: readonly Case[] = [
  {
    name:
      "deliveries.cancelPending: a source's deliveries not due and never tried stop; others go on",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      await store.deliveries.enqueue([
        delivery("due", { notBefore: T }),
        delivery("later", { notBefore: T + 10 * MIN }),
        delivery("retry", { notBefore: T - MIN }),
        delivery("other", { notBefore: T + 10 * MIN, source: { kind: "rule", id: "r2" } }),
      ]);
      // "retry" was tried once and failed: its next attempt waits until later.
      const [claimed] = await store.deliveries.claimDue(T - MIN, 1, "w", MIN);
      await store.deliveries.finish(claimed!.id, "w", {
        n: 1,
        at: T - MIN,
        ok: false,
        status: 503,
        reply: null,
        latencyMs: 1,
        error: "HTTP 503",
      }, { state: "pending", notBefore: T + 5 * MIN, error: "HTTP 503" });
      equal(await store.deliveries.cancelPending("r1", T), 1);
      const state = async (id: string) => (await store.deliveries.get("a1", id))!.delivery.state;
      deepStrictEqual(
        [await state("due"), await state("later"), await state("retry"), await state("other")],
        ["pending", "cancelled", "pending", "pending"],
      );
    },
  },
  {
    name:
      "monitors.watching: every account's unpaused monitors on the services asked, oldest first",
    async run(store) {
      for (const a of ["a1", "a2", "a3"]) {
        await store.accounts.create(accountOf(a), memberOf(`m_${a}`, a, `${a}@x.test`));
      }
      await store.monitors.create(monitor("m1", "a1", "github"), null);
      await store.monitors.create({ ...monitor("m2", "a2", "github"), createdAt: T + 1 }, null);
      await store.monitors.create({ ...monitor("m3", "a2", "aws"), createdAt: T + 2 }, null);
      await store.monitors.create(
        { ...monitor("m4", "a3", "github", true), createdAt: T + 3 },
        null,
      );
      await store.monitors.create({ ...monitor("m5", "a3", "slack"), createdAt: T + 4 }, null);
      const ids = async (slugs: string[]) =>
        (await store.monitors.watching(slugs)).map((m) => m.id);
      deepStrictEqual(await ids(["github"]), ["m1", "m2"], "the paused one is left out");
      deepStrictEqual(await ids(["aws", "github"]), ["m1", "m2", "m3"]);
      deepStrictEqual(await ids(["nobody-watches"]), []);
      deepStrictEqual(await ids([]), []);
      await store.monitors.update("a3", "m4", { paused: false }, T + MIN, null);
      deepStrictEqual(await ids(["github"]), ["m1", "m2", "m4"], "resumed: watched again");
      await store.monitors.delete("a1", "m1", null);
      deepStrictEqual(await ids(["github"]), ["m2", "m4"]);
    },
  },
  {
    name:
      "alertRules.ofAccounts and subscriptions.active: only of the accounts asked (rules enabled or not, active subscriptions)",
    async run(store) {
      for (const a of ["a1", "a2", "a3"]) {
        await store.accounts.create(accountOf(a), memberOf(`m_${a}`, a, `${a}@x.test`));
      }
      await store.alertRules.create(rule("r1", "a1"), null);
      await store.alertRules.create({ ...rule("r2", "a2"), createdAt: T + 1 }, null);
      await store.alertRules.create({ ...rule("r3", "a2", false), createdAt: T + 2 }, null);
      await store.alertRules.create({ ...rule("r4", "a3"), createdAt: T + 3 }, null);
      const rules = async (accounts: string[]) =>
        (await store.alertRules.ofAccounts(accounts)).map((r) => [r.id, r.enabled]);
      deepStrictEqual(await rules(["a1", "a2"]), [["r1", true], ["r2", true], ["r3", false]]);
      deepStrictEqual(await rules(["a3"]), [["r4", true]]);
      deepStrictEqual(await rules([]), []);
      await store.alertRules.update("a2", "r3", { enabled: true }, T + MIN, null);
      deepStrictEqual(await rules(["a2"]), [["r2", true], ["r3", true]]);
      for (
        const [id, accountId, state] of [
          ["s1", "a1", "active"],
          ["s2", "a1", "pending_confirmation"],
          ["s3", "a2", "active"],
        ] as const
      ) {
        await store.subscriptions.create({
          id,
          accountId,
          target: { kind: "monitor", id: "m1" },
          channel: { kind: "route", routeId: "rt_1" },
          state,
          confirmHash: null,
          unsubscribeToken: `tok_${id}`,
          createdAt: T,
        }, null);
      }
      deepStrictEqual((await store.subscriptions.active(["a1"])).map((s) => s.id), ["s1"]);
      deepStrictEqual(
        (await store.subscriptions.active(["a1", "a2", "a3"])).map((s) => s.id).sort(),
        ["s1", "s3"],
      );
    },
  },
  {
    name:
      "catalog.failing: the services whose latest attempt failed, since when; a success ends it",
    async run(store) {
      const { a, b } = await withVendors(store, [vendor("a"), vendor("b")]);
      deepStrictEqual(await store.catalog.failing(), []);
      const fail = (id: number, at: number) =>
        store.polls.recordFailure(id, failure(at, "timeout"));
      await fail(b!, T);
      await fail(b!, T + MIN);
      await fail(a!, T + MIN);
      deepStrictEqual(await store.catalog.failing(), [
        { slug: "a", since: T + MIN },
        { slug: "b", since: T },
      ]);
      await store.polls.recordNotModified(b!, {
        at: T + 2 * MIN,
        latencyMs: 1,
        httpStatus: 304,
        nextPollAt: T + 9 * MIN,
        deadlineAt: T + 10 * MIN,
      });
      deepStrictEqual(await store.catalog.failing(), [{ slug: "a", since: T + MIN }]);
    },
  },
  {
    name:
      "deliveries.unresolved: per source and subject under the prefix, the last one when still open",
    async run(store) {
      await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
      await store.deliveries.enqueue([
        // m1 under r1: alert, then its recovery: resolved.
        delivery("d1", {}),
        delivery("d2", { recovery: true, notificationId: "d1", createdAt: T + 1 }),
        // m2 under r1: an open alert on two routes.
        delivery("d3", { subject: "reading:m2", createdAt: T + 2 }),
        delivery("d4", {
          subject: "reading:m2",
          routeId: "rt_2",
          notificationId: "d3",
          createdAt: T + 2,
        }),
        // m2 under r2: ended by a closing marker (stored cancelled).
        delivery("d5", { subject: "reading:m2", source: { kind: "rule", id: "r2" } }),
        delivery("d6", {
          subject: "reading:m2",
          source: { kind: "rule", id: "r2" },
          recovery: true,
          closing: true,
          notificationId: "d5",
          createdAt: T + 3,
        }),
        // Another kind of subject is not asked for.
        delivery("d7", { subject: "monitor:m3" }),
      ]);
      const open = await store.deliveries.unresolved("reading:");
      deepStrictEqual(open.map((d) => [d.source.id, d.subject, d.notificationId]), [
        ["r1", "reading:m2", "d3"],
      ]);
      deepStrictEqual(
        (await store.deliveries.unresolved("monitor:")).map((d) => d.id),
        ["d7"],
      );
    },
  },
];
