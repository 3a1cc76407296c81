/**
 * One account cannot stall another's alerts, and nothing is sent twice (issue #27): an account
 * queues thirty deliveries on a destination that hangs and one each on ten more, then another
 * account's single delivery is queued last. The worker, with a lease far shorter than the hang,
 * sends the other account's delivery before any of the first account's attempts ends, never
 * holds more than a few slots for one account, and never sends a delivery again while its first
 * attempt runs (every request a receiver saw is one recorded attempt).
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import type { AlertMessage, NewDelivery } from "../../domain/mod.ts";
import { MAX_IN_FLIGHT_PER_ACCOUNT } from "../../domain/mod.ts";
import { parseAllowance } from "../../lib/mod.ts";
import { silentLogger } from "../../log.ts";
import { createHttpSender } from "../../outbound/send_http.ts";
import { createDeliveryWorker } from "../../outbound/worker.ts";
import { accountOf, memberOf } from "../store/conformance/accounts.ts";
import { startReceivers } from "../support/receivers.ts";
import { memoryStore } from "../support/store.ts";

const T0 = Math.floor(Date.now() / 1000) * 1000;
const LOOPBACK = (() => {
  const r = parseAllowance("127.0.0.1");
  if (!r.ok) throw new Error("allowance");
  return r.allowance;
})();

const message: AlertMessage = {
  notificationId: "n",
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
  sentBecause: "route",
  at: T0,
};

Deno.test("a hanging destination of one account delays no other account, and nothing goes twice", async () => {
  const rx = startReceivers();
  const store = memoryStore();
  await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
  await store.accounts.create(accountOf("a2"), memberOf("m2", "a2", "two@x.test"));
  const route = (accountId: string, id: string, path: string) =>
    store.alertRoutes.create({
      id,
      accountId,
      name: id,
      settings: { kind: "webhook", url: `${rx.origin}${path}`, secret: "whsec_" + "A".repeat(32) },
      paused: null,
      failuresInARow: 0,
      createdAt: T0,
    }, null);
  const queued: NewDelivery[] = [];
  const add = (accountId: string, routeId: string, id: string, at: number) =>
    queued.push({
      id,
      accountId,
      routeId,
      source: { kind: "test", id: null },
      changeId: null,
      notificationId: `ntf_${id}`,
      subject: `route:${routeId}`,
      step: 0,
      recovery: false,
      message,
      notBefore: at,
      createdAt: at,
    });
  await route("a1", "slow", "/hang");
  for (let i = 0; i < 30; i++) add("a1", "slow", `slow_${i}`, T0 - 10_000 + i);
  for (let r = 0; r < 10; r++) {
    await route("a1", `also_${r}`, "/hang");
    add("a1", `also_${r}`, `also_${r}`, T0 - 5_000 + r);
  }
  await route("a2", "fast", "/webhook");
  add("a2", "fast", "theirs", T0);
  await store.deliveries.enqueue(queued);
  rx.script("/hang", ...Array.from({ length: 200 }, () => ({ answer: "hang" as const })));

  const worker = createDeliveryWorker({
    store,
    http: createHttpSender({ timeoutMs: 2_000, allowPrivate: LOOPBACK }),
    mail: null,
    clock: { now: () => Date.now() },
    log: silentLogger,
    instanceId: "w",
    // A lease far shorter than an attempt: only renewal keeps a running attempt its own.
    options: { concurrency: 8, leaseMs: 300, idleMs: 20, random: () => 0.5 },
  });
  const attemptsOf = async (account: string) =>
    (await store.deliveries.list(account, {}, { page: 0, limit: 100 })).items
      .reduce((n, d) => n + d.attempts, 0);
  try {
    worker.start();
    while (rx.on("/webhook").length === 0) await new Promise((r) => setTimeout(r, 10));
    equal(await attemptsOf("a1"), 0, "the other account's delivery went before any hang ended");
    ok(
      rx.on("/hang").length <= MAX_IN_FLIGHT_PER_ACCOUNT,
      `${rx.on("/hang").length} of a1's in flight at once`,
    );
    while ((await store.deliveries.get("a2", "theirs"))!.delivery.state !== "delivered") {
      await new Promise((r) => setTimeout(r, 10));
    }
    // Let the hanging attempts time out (2 s), with leases of 300 ms renewed meanwhile.
    while (await attemptsOf("a1") < MAX_IN_FLIGHT_PER_ACCOUNT) {
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await worker.stop();
    await rx.close();
  }
  const sent = new Map<string, number>();
  for (const r of rx.on("/hang")) {
    sent.set(r.headers["webhook-id"]!, (sent.get(r.headers["webhook-id"]!) ?? 0) + 1);
  }
  const attempts = new Map<string, number>();
  for (const d of (await store.deliveries.list("a1", {}, { page: 0, limit: 100 })).items) {
    if (d.attempts > 0) attempts.set(d.id, d.attempts);
  }
  deepStrictEqual(
    [...sent].sort(),
    [...attempts].sort(),
    "every request received is one recorded attempt: no send without its attempt",
  );
  ok(!sent.has("slow_1") || sent.has("slow_0"), "a route's queue is sent from its head");
});
