/**
 * Strangers at a public board's subscribe form cannot crowd out its owner or learn anything of
 * an address: pending confirmations never count toward the owner's limit, are capped per board
 * and expire after 48 hours; one IPv6 /64 is one client to the form's rate limit; refusals say
 * nothing of the account; and the form answers alike whatever the address's mail history (the
 * explanation goes to the address itself, by mail, once a week at most).
 * @module
 */
import { equal, match, notEqual, ok } from "node:assert/strict";
import {
  type Caller,
  confirmByLink,
  createBoard,
  createMonitor,
  createRoute,
  createSubscription,
  PENDING_PER_BOARD,
  SUBSCRIPTION_LIMIT,
} from "../../app/mod.ts";
import { createServer } from "../../routes/mod.ts";
import { LIMITS } from "../../routes/middleware/rate_limit.ts";
import { account, testContext } from "../support/accounts.ts";
import { mailDelivery } from "../support/mail_delivery.ts";
import { syncVendors, vendorOf } from "../support/seed.ts";
import { visibleText } from "../support/html.ts";
import { fromAddress } from "../support/web.ts";

const T0 = Math.floor(Date.now() / 1000) * 1000;

async function rig() {
  let now = T0;
  const ctx = testContext({ clock: { now: () => now }, mailEnabled: true });
  await syncVendors(ctx.store, [vendorOf({ slug: "github", name: "GitHub" })], T0 - 86_400_000);
  const who = await account(ctx, "owner@example.com");
  const admin: Caller = { kind: "admin", account: who.account };
  const monitor = await createMonitor(ctx, admin, { service: "github" });
  const board = await createBoard(ctx, admin, {
    slug: "acme-status",
    title: "Acme status",
    public: true,
    items: [{ kind: "monitor", id: monitor.id }],
  });
  const app = createServer({ app: ctx });
  const subscribe = (email: string, address: string) =>
    app.request("/b/acme-status/subscribe", {
      method: "POST",
      headers: { accept: "text/html" },
      body: new URLSearchParams({ email }),
    }, fromAddress(address));
  /** The owner keeps `n` more subscriptions of the board, on a route of its own; the route. */
  const keep = async (n: number) => {
    const route = (await createRoute(ctx, admin, {
      name: `hooks ${crypto.randomUUID().slice(0, 8)}`,
      settings: { kind: "webhook", url: "http://127.0.0.1:9/hooks" },
    })).route;
    for (let i = 0; i < n; i++) {
      await ctx.store.subscriptions.create({
        id: `sub_${route.id}_${i}`.slice(0, 40),
        accountId: who.account.id,
        target: { kind: "board", id: board.id },
        channel: { kind: "route", routeId: route.id },
        state: "active",
        confirmHash: null,
        unsubscribeToken: `token${i}`.padEnd(24, "x"),
        createdAt: T0,
      }, null);
    }
    return route;
  };
  return {
    ctx,
    admin,
    who,
    board,
    subscribe,
    keep,
    advance: (ms: number) => (now += ms),
  };
}

Deno.test("strangers cannot lock a board's owner out: pending ones expire, do not count, are capped", async () => {
  const r = await rig();
  await using _ = r.ctx;
  // The owner keeps one short of the limit.
  const route = await r.keep(SUBSCRIPTION_LIMIT - 1);
  // 52 addresses of one IPv6 /64, 10 subscribes each: the /64 is one client.
  let passed = 0;
  for (let a = 0; a < 52; a++) {
    for (let n = 0; n < 10; n++) {
      const res = await r.subscribe(`v6-${a}-${n}@example.org`, `2001:db8:5:6::${a.toString(16)}`);
      if (res.status === 200) passed++;
      await res.body?.cancel();
    }
  }
  equal(passed, LIMITS.boardSubscribe.limit);
  // From many addresses: the board takes PENDING_PER_BOARD confirmations at once, then refuses
  // without a word of the account.
  const statuses: number[] = [];
  let refusal = "";
  for (let i = 0; i < PENDING_PER_BOARD + 20; i++) {
    const res = await r.subscribe(`many${i}@example.org`, `198.51.100.${i}`);
    statuses.push(res.status);
    const text = visibleText(await res.text());
    if (res.status === 429) refusal = text;
  }
  equal(statuses.filter((s) => s === 200).length, PENDING_PER_BOARD - LIMITS.boardSubscribe.limit);
  equal(statuses.filter((s) => s === 429).length, 20 + LIMITS.boardSubscribe.limit);
  match(refusal, /This page takes no more subscriptions for now; try again in an hour/);
  equal(/\b(500|499|account|owner)\b/i.test(refusal), false, refusal);
  // None of that stops the owner: pending confirmations do not count.
  const mine = await createSubscription(r.ctx, r.admin, {
    target: { kind: "board", id: r.board.id },
    route: route.id,
  });
  equal(mine.state, "active");
  // At the limit, a pending one cannot be confirmed; its address is told so.
  const pending = (await r.ctx.store.subscriptions.list(r.who.account.id, {
    page: 0,
    limit: 1000,
  })).items.find((s) => s.state === "pending_confirmation")!;
  equal(await confirmByLink(r.ctx, `${pending.id}.${"x".repeat(32)}`), false, "a wrong token");
  // 48 hours on, every pending one has expired: the board takes new ones again.
  r.advance(48 * 3_600_000);
  const later = await r.subscribe("later@example.org", "203.0.113.9");
  equal(later.status, 200);
  const left = (await r.ctx.store.subscriptions.list(r.who.account.id, { page: 0, limit: 1000 }))
    .items.filter((s) => s.state === "pending_confirmation");
  equal(left.length, 1, "the expired ones are gone");
});

Deno.test("a pending confirmation expires after 48 hours and cannot be confirmed past the limit", async () => {
  const r = await rig();
  await using _ = r.ctx;
  const delivery = await mailDelivery(r.ctx);
  try {
    const confirmLink = async (email: string, address: string) => {
      const before = delivery.smtp.messages.length;
      equal((await r.subscribe(email, address)).status, 200);
      await delivery.deliver();
      equal(delivery.smtp.messages.length, before + 1);
      const mail = delivery.smtp.messages.at(-1)!;
      equal(mail.subject, "Confirm your subscription to Acme status");
      match(mail.text!, /Confirm within 48 hours/);
      return /subscriptions\/confirm\/(\S+)/.exec(mail.text!)![1]!;
    };
    const early = await confirmLink("early@example.org", "198.51.100.1");
    const late = await confirmLink("late@example.org", "198.51.100.2");
    equal(await confirmByLink(r.ctx, early), true);
    r.advance(48 * 3_600_000 + 1);
    equal(await confirmByLink(r.ctx, late), false, "expired");
    // At the owner's limit, a confirmation is refused as "full".
    const third = await confirmLink("third@example.org", "198.51.100.3");
    await r.keep(SUBSCRIPTION_LIMIT - 1); // and the one confirmed above
    equal(await confirmByLink(r.ctx, third), "full");
  } finally {
    await delivery.close();
  }
});

Deno.test("the form answers alike whatever the address's mail history; the address itself is told", async () => {
  const r = await rig();
  await using _ = r.ctx;
  const delivery = await mailDelivery(r.ctx);
  try {
    await r.ctx.store.mail.suppress("gone@example.org", {
      reason: "unsubscribed",
      at: Date.UTC(2026, 11, 2),
    });
    await r.ctx.store.mail.suppress("bounced@example.org", {
      reason: "bounced",
      at: Date.UTC(2026, 11, 3),
    });
    const answer = async (email: string, address: string) => {
      const res = await r.subscribe(email, address);
      return { status: res.status, text: visibleText(await res.text()).replaceAll(email, "X") };
    };
    const fresh = await answer("new@example.org", "198.51.100.10");
    const gone = await answer("gone@example.org", "198.51.100.11");
    const bounced = await answer("bounced@example.org", "198.51.100.12");
    equal(fresh.status, 200);
    equal(gone.status, fresh.status);
    equal(gone.text, fresh.text);
    equal(bounced.status, fresh.status);
    equal(bounced.text, fresh.text);
    equal(/unsubscribed|bounced|2026-12-0/.test(gone.text + bounced.text), false);
    await delivery.deliver();
    const to = (m: (typeof delivery.smtp.messages)[number]) =>
      m.to && "text" in m.to ? m.to.text : "";
    const mails = delivery.smtp.messages;
    equal(mails.length, 3, "each address gets its one mail");
    const goneMail = mails.find((m) => to(m) === "gone@example.org")!;
    match(goneMail.text!, /This address unsubscribed from statusd mail on 2026-12-02/);
    match(
      mails.find((m) => to(m) === "bounced@example.org")!.text!,
      /Mail to this address bounced on 2026-12-03/,
    );
    // Asked again the same week: the same answer, and no second mail to a suppressed address.
    const again = await answer("gone@example.org", "198.51.100.13");
    equal(again.text, fresh.text);
    await delivery.deliver();
    equal(mails.length, 3);
    // Confirming from the mail is the owner's own choice: the address is mailed again.
    const link = /subscriptions\/confirm\/(\S+)/.exec(goneMail.text!)![1]!;
    equal(await confirmByLink(r.ctx, link), true);
    equal((await r.ctx.store.mail.suppressions(["gone@example.org"])).size, 0);
    notEqual(link, "");
    ok(true);
  } finally {
    await delivery.close();
  }
});
