/**
 * The delivery worker: claims due deliveries from the outbox under a lease, renders each for its
 * route and sends it, records the attempt, and schedules the retry or gives up
 * (domain/delivery_policy.ts). It claims only what it can send at once (its free slots), and the
 * store claims fairly: the head of each route's queue, one delivery in flight per route, a few
 * per account, accounts in turn. So a slow or dead destination holds one slot for at most its
 * send timeout and delays only its own route, and a delivery never waits under a lease that
 * could run out. While an attempt runs its lease is renewed, so no other worker sends it again;
 * only a crash can (the resend carries the same id). A route whose deliveries keep failing is
 * paused (visible in the API) and the account's other routes are told; its pending deliveries
 * wait until it is resumed.
 * @module
 */
import type {
  AlertMessage,
  Clock,
  DeliveryRecord,
  NewDelivery,
  RouteRecord,
  RouteSettingsData,
  Store,
} from "../domain/mod.ts";
import {
  CONSENT_ROUTE_PREFIX,
  consentAddress,
  mailAddress,
  nextTry,
  PAUSE_AFTER_FAILURES,
  RECONFIRM_DELIVERY_PREFIX,
} from "../domain/mod.ts";
import type { Logger } from "../log.ts";
import { describeRoute, renderFor, RouteSettings } from "./channels/mod.ts";
import type { HttpOutgoing, MailOutgoing } from "./channels/mod.ts";
import type { SendResult } from "./transport.ts";

/** What the worker needs. */
export interface DeliveryWorkerDeps {
  readonly store: Pick<Store, "deliveries" | "alertRoutes" | "subscriptions" | "mail">;
  readonly http: { send(out: HttpOutgoing): Promise<SendResult> };
  /** null: STATUSD_SMTP_URL is not set (email deliveries fail, saying so). */
  readonly mail: { send(out: MailOutgoing): Promise<SendResult> } | null;
  readonly clock: Clock;
  readonly log: Logger;
  /** This process's name (the lease holder). */
  readonly instanceId: string;
  readonly options?: {
    /** Sends in flight at once (16). */
    readonly concurrency?: number;
    /** How often the outbox is looked at when idle, ms (500). */
    readonly idleMs?: number;
    /** Lease on claimed deliveries, ms (120 s). */
    readonly leaseMs?: number;
    /** Jitter source in [0, 1) (tests pin it). */
    readonly random?: () => number;
  };
}

/** A running worker. */
export interface DeliveryWorker {
  start(): void;
  /** Looks at the outbox now (after an enqueue) instead of at the next tick. */
  wake(): void;
  /** One round: claims what is due and sends it; resolves with how many were attempted. */
  runOnce(): Promise<number>;
  /** Stops claiming and waits for sends in flight. */
  stop(): Promise<void>;
}

/** How long a paused route's deliveries wait before they are looked at again. */
const PAUSED_RECHECK_MS = 60_000;

/** A worker over `deps`. */
export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const concurrency = deps.options?.concurrency ?? 16;
  const idleMs = deps.options?.idleMs ?? 500;
  const leaseMs = deps.options?.leaseMs ?? 120_000;
  const random = deps.options?.random ?? Math.random;
  const chains = new Map<string, Promise<void>>();
  /** Deliveries being attempted now, by id (their leases are renewed while they run). */
  const attempting = new Set<string>();
  let renewal: ReturnType<typeof setInterval> | undefined;
  let inFlight = 0;
  let running = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let round: Promise<number> | null = null;

  const routeKey = (d: DeliveryRecord) => `${d.accountId}/${d.routeId}`;

  /** Mails `d`'s message to `to` (already allowed). */
  function mail(to: readonly string[], d: DeliveryRecord): Promise<SendResult> {
    const out = renderFor({ kind: "email", to: [...to] }, d.message, {
      eventId: d.id,
      at: deps.clock.now(),
    });
    return out.kind === "mail"
      ? sendMail(out)
      : Promise.resolve(failed("the email channel rendered no mail", true));
  }

  /** Sends rendered mail, and suppresses every address the server refused for good. */
  async function sendMail(out: MailOutgoing): Promise<SendResult> {
    if (!deps.mail) return failed("email cannot be sent: STATUSD_SMTP_URL is not set", true);
    const result = await deps.mail.send(out);
    for (const address of result.bounced ?? []) {
      await deps.store.mail.suppress(mailAddress(address), {
        reason: "bounced",
        at: deps.clock.now(),
      });
    }
    return result;
  }

  /** Why `address` gets no mail now (suppressed), or null. */
  async function suppressedWhy(address: string): Promise<string | null> {
    const s = (await deps.store.mail.suppressions([address])).get(address);
    return s ? `${address} ${s.reason === "bounced" ? "bounced" : "unsubscribed"}` : null;
  }

  /** A request to confirm an address (the delivery's subject is `mail:<address>`). */
  async function deliverConsentRequest(d: DeliveryRecord): Promise<void> {
    const address = consentAddress(d.subject);
    const why = address ? await suppressedWhy(address) : "no address";
    if (why) {
      await finish(d, failed(`not sent: ${why}`, true), null);
      return;
    }
    await finish(d, await mail([address], d), null);
  }

  /** A delivery to a subscription's own address (its route id is the subscription's id). */
  async function deliverToSubscriber(d: DeliveryRecord): Promise<void> {
    const sub = await deps.store.subscriptions.byId(d.routeId);
    if (!sub || sub.accountId !== d.accountId || sub.channel.kind !== "email") {
      await finish(d, failed("the subscription was deleted", true), null);
      return;
    }
    const confirmation = d.source.kind === "notice" && sub.state === "pending_confirmation";
    if (sub.state !== "active" && !confirmation) {
      const why = sub.state === "unsubscribed" ? "the address unsubscribed" : "not confirmed";
      await finish(d, failed(why, true), null);
      return;
    }
    // An address that unsubscribed or bounced gets nothing, but the one request to confirm a new
    // subscription again (rate-limited where it is made) that tells it why.
    const why = d.id.startsWith(RECONFIRM_DELIVERY_PREFIX) && confirmation
      ? null
      : await suppressedWhy(mailAddress(sub.channel.email));
    if (why) {
      await finish(d, failed(`not sent: ${why}`, true), null);
      return;
    }
    await finish(d, await mail([sub.channel.email], d), null);
  }

  /**
   * An email route's addresses that may get its mail: confirmed for the account and not
   * suppressed; with the reason when none may.
   */
  async function allowedRecipients(
    accountId: string,
    to: readonly string[],
  ): Promise<{ to: string[]; why: string | null }> {
    const list = to.map(mailAddress);
    const [consents, suppressed] = await Promise.all([
      deps.store.mail.consents(accountId, list),
      deps.store.mail.suppressions(list),
    ]);
    const allowed = list.filter((a) => consents.get(a) === "confirmed" && !suppressed.has(a));
    return {
      to: allowed,
      why: allowed.length
        ? null
        : `no address of this route has confirmed it yet (${list.join(", ")}); each was ` +
          "mailed a link to confirm",
    };
  }

  async function deliver(d: DeliveryRecord): Promise<void> {
    const store = deps.store;
    if (d.routeId.startsWith("sub_")) return await deliverToSubscriber(d);
    if (d.routeId.startsWith(CONSENT_ROUTE_PREFIX)) return await deliverConsentRequest(d);
    const route = await store.alertRoutes.get(d.accountId, d.routeId);
    const now = () => deps.clock.now();
    if (route === null) {
      await finish(d, failed("the route was deleted", true), null);
      return;
    }
    if (route.paused) {
      await store.deliveries.redeliver(d.accountId, d.id, now() + PAUSED_RECHECK_MS);
      return;
    }
    const settings = RouteSettings.safeParse(route.settings);
    if (!settings.success) {
      await finish(d, failed("the route's settings no longer validate", true), route);
      return;
    }
    const out = renderFor(settings.data as RouteSettingsData, d.message, {
      eventId: d.id,
      at: now(),
    });
    let result: SendResult;
    try {
      if (out.kind === "http") result = await deps.http.send(out);
      else {
        const allowed = await allowedRecipients(d.accountId, out.to);
        result = allowed.why === null
          ? await sendMail({ ...out, to: allowed.to })
          : failed(`not sent: ${allowed.why}`, true);
      }
    } catch (err) {
      result = failed(`send failed: ${String(err).slice(0, 200)}`, false);
    }
    await finish(d, result, route);
  }

  function failed(error: string, permanent: boolean): SendResult {
    return {
      ok: false,
      status: null,
      reply: null,
      latencyMs: 0,
      retryAfterMs: null,
      permanent,
      error,
    };
  }

  async function finish(d: DeliveryRecord, r: SendResult, route: RouteRecord | null) {
    const at = deps.clock.now();
    const n = d.attempts + 1;
    const retryAt = r.ok ? null : nextTry(n, at, d.createdAt, r, random());
    const state = r.ok ? "delivered" : retryAt === null ? "failed" : "pending";
    const kept = await deps.store.deliveries.finish(d.id, deps.instanceId, {
      n,
      at,
      ok: r.ok,
      status: r.status,
      reply: r.reply,
      latencyMs: r.latencyMs,
      error: r.error,
    }, { state, notBefore: retryAt ?? at, error: r.error });
    if (!kept) {
      deps.log.warn("delivery lease lost before its attempt was recorded", { delivery: d.id });
      return;
    }
    deps.log[r.ok ? "debug" : "info"]("alert delivery attempt", {
      delivery: d.id,
      route: d.routeId,
      attempt: n,
      state,
      status: r.status,
      error: r.error,
    });
    if (route === null) return;
    // The route's health is its own row: recording it never changes the route's version.
    if ((r.ok && route.failuresInARow > 0) || state === "failed") {
      const health = await deps.store.alertRoutes.recordOutcome(d.accountId, route.id, {
        ok: r.ok,
        at,
        pauseAfter: PAUSE_AFTER_FAILURES,
        reason: `${PAUSE_AFTER_FAILURES} deliveries in a row failed; the last: ${r.error}`,
      });
      if (health?.pausedNow) await tellOwner({ ...route, ...health }, at);
    }
  }

  /** A notice on the account's other working routes that `route` was paused. */
  async function tellOwner(route: RouteRecord, at: number) {
    deps.log.warn("alert route paused after repeated failures", {
      account: route.accountId,
      route: route.id,
      destination: describeRoute(route.settings),
    });
    const { items } = await deps.store.alertRoutes.list(route.accountId, { page: 0, limit: 100 });
    const others = items.filter((r) => r.id !== route.id && r.paused === null);
    const notificationId = `pause_${route.id}_${at}`;
    const message: AlertMessage = {
      notificationId,
      trigger: "notice",
      summary: `statusd paused the alert route "${route.name}"`,
      level: "UNKNOWN",
      previousLevel: null,
      service: null,
      components: [],
      componentsTotal: 0,
      incident: null,
      timeToResolve: null,
      advice: `Deliveries to ${describeRoute(route.settings)} kept failing (${
        route.paused?.reason ?? "see its delivered alert events"
      }). Alerts for it wait until you fix the destination and resume the route.`,
      links: {},
      sentBecause: `route ${route.name}`,
      at,
    };
    const notices: NewDelivery[] = others.map((o) => ({
      id: `${notificationId}_${o.id}`,
      accountId: route.accountId,
      routeId: o.id,
      source: { kind: "notice", id: null },
      changeId: null,
      notificationId,
      subject: `route:${route.id}`,
      step: 0,
      recovery: false,
      message,
      notBefore: at,
      createdAt: at,
    }));
    if (notices.length) await deps.store.deliveries.enqueue(notices);
  }

  async function runOnce(): Promise<number> {
    const free = concurrency - inFlight;
    if (free <= 0) return 0;
    const due = await deps.store.deliveries.claimDue(
      deps.clock.now(),
      free,
      deps.instanceId,
      leaseMs,
    );
    for (const d of due) {
      const key = routeKey(d);
      inFlight++;
      attempting.add(d.id);
      const next = (chains.get(key) ?? Promise.resolve())
        .then(() => deliver(d))
        .catch((err) =>
          deps.log.error("alert delivery failed", { delivery: d.id, err: String(err) })
        )
        .finally(() => {
          inFlight--;
          attempting.delete(d.id);
          if (chains.get(key) === next) chains.delete(key);
          if (running) schedule(0);
        });
      chains.set(key, next);
    }
    return due.length;
  }

  function schedule(ms: number) {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
  }

  async function tick() {
    if (round) return;
    round = runOnce().catch((err) => {
      deps.log.error("alert outbox round failed", { err: String(err) });
      return 0;
    });
    const n = await round;
    round = null;
    schedule(n > 0 ? 0 : idleMs);
  }

  return {
    start() {
      if (running) return;
      running = true;
      // Leases of running attempts are moved on at a third of their length, so an attempt that
      // takes longer than the lease (a slow mail server) is never claimed and sent again.
      renewal = setInterval(() => {
        if (attempting.size === 0) return;
        deps.store.deliveries.extendLease(
          [...attempting],
          deps.instanceId,
          deps.clock.now() + leaseMs,
        )
          .catch((err) => deps.log.warn("could not renew delivery leases", { err: String(err) }));
      }, Math.max(1, Math.floor(leaseMs / 3)));
      schedule(0);
    },
    wake: () => schedule(0),
    runOnce,
    async stop() {
      running = false;
      clearTimeout(timer);
      clearInterval(renewal);
      if (round) await round;
      await Promise.all([...chains.values()]);
    },
  };
}
