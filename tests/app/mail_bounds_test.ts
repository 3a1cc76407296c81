/**
 * statusd cannot be made to send unlimited mail (issue #27), through a real SMTP server: an
 * email route's addresses get a request to confirm and nothing else until they do (a test sent
 * before fails, saying why); one address gets at most three requests a day from every account
 * together; an address that unsubscribed is refused to every account until its owner subscribes
 * again from the same link; a bounce suppresses the address; "send test" is limited per route and
 * per account; and a FREE account keeps three routes of three addresses at most.
 */
import { equal, match, ok, rejects } from "node:assert/strict";
import {
  type Caller,
  CONFIRMATIONS_PER_ADDRESS,
  confirmMailByLink,
  createMonitor,
  createRoute,
  createSubscription,
  deleteSubscription,
  FREE_ROUTES,
  getRoute,
  resubscribeByLink,
  SEND_TEST_LIMITS,
  sendTest,
  unsubscribeByLink,
} from "../../app/mod.ts";
import { silentLogger } from "../../log.ts";
import { createHttpSender } from "../../outbound/send_http.ts";
import { createMailSender } from "../../outbound/send_mail.ts";
import { createDeliveryWorker } from "../../outbound/worker.ts";
import { account, testContext } from "../support/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";
import { startSmtp } from "../support/smtp.ts";

const T0 = Math.floor(Date.now() / 1000) * 1000;

async function rig() {
  let now = T0;
  const ctx = testContext({ clock: { now: () => now }, mailEnabled: true });
  await syncVendors(ctx.store, [vendorOf({ slug: "github", name: "GitHub" })], T0 - 86_400_000);
  await recordReading(
    ctx.store,
    "github",
    { indicator: "OPERATIONAL", components: [], incidents: [] },
    T0 - 3_600_000,
  );
  const smtp = await startSmtp();
  const worker = createDeliveryWorker({
    store: ctx.store,
    http: createHttpSender({ timeoutMs: 1_000, allowPrivate: { all: false, ranges: [] } }),
    mail: createMailSender({ smtpUrl: smtp.url, from: "statusd@example.com", timeoutMs: 5_000 }),
    clock: ctx.clock,
    log: silentLogger,
    instanceId: "t",
  });
  const deliver = async () => {
    for (let i = 0; i < 5 && await worker.runOnce() > 0; i++) await worker.stop();
    await worker.stop();
  };
  const owner = async (email: string, plan: "FREE" | "PRO" = "PRO") => {
    const who = await account(ctx, email, plan);
    return { kind: "admin", account: who.account } as const satisfies Caller;
  };
  const to = (address: string) =>
    smtp.messages.filter((m) => m.to && JSON.stringify(m.to).includes(address));
  return {
    ctx,
    smtp,
    deliver,
    owner,
    to,
    advance: (ms: number) => (now += ms),
    async [Symbol.asyncDispose]() {
      await worker.stop();
      await smtp.close();
    },
  };
}

const linkIn = (text: string | undefined, path: string) =>
  new RegExp(`http://localhost:8080${path}(\\S+)`).exec(text ?? "")?.[1] ?? "";

Deno.test("an email route's addresses confirm before anything but the request reaches them", async () => {
  await using r = await rig();
  const admin = await r.owner("owner@example.com");
  const made = await createRoute(r.ctx, admin, {
    name: "Ops mail",
    settings: { kind: "email", to: ["oncall@example.com", "Lead@Example.com"] },
  });
  equal(
    JSON.stringify(made.route.recipients),
    JSON.stringify([
      { address: "oncall@example.com", state: "pending" },
      { address: "lead@example.com", state: "pending" },
    ]),
  );
  await sendTest(r.ctx, admin, made.route.id);
  await r.deliver();
  equal(r.smtp.messages.length, 2, "the two requests to confirm, and not the test");
  for (const m of r.smtp.messages) match(m.subject ?? "", /Confirm alert mail from statusd/);
  const events = await r.ctx.store.deliveries.list(admin.account.id, {}, { page: 0, limit: 10 });
  const test = events.items.find((d) => d.source.kind === "test")!;
  equal(test.state, "failed");
  match(test.lastError ?? "", /no address of this route has confirmed it yet/);

  const token = linkIn(r.to("oncall@example.com")[0]!.text, "/mail/confirm/");
  equal(await confirmMailByLink(r.ctx, token), true);
  equal(await confirmMailByLink(r.ctx, token), false, "once");
  equal(
    JSON.stringify((await getRoute(r.ctx, admin, made.route.id)).recipients?.map((x) => x.state)),
    JSON.stringify(["confirmed", "pending"]),
  );
  await sendTest(r.ctx, admin, made.route.id);
  await r.deliver();
  const tests = r.smtp.messages.filter((m) => /Test alert from statusd/.test(m.subject ?? ""));
  equal(tests.length, 1);
  equal(JSON.stringify(tests[0]!.to), JSON.stringify(tests[0]!.to).replace("lead@", "x"));
  ok(JSON.stringify(tests[0]!.to).includes("oncall@example.com"), "only the confirmed address");
});

Deno.test("one address gets at most three requests to confirm a day, from every account together", async () => {
  await using r = await rig();
  const accounts = [await r.owner("a@example.com"), await r.owner("b@example.com")];
  const target = "victim@example.org";
  let made = 0;
  let refused = 0;
  for (let i = 0; i < 10; i++) {
    const who = accounts[i % 2]!;
    const monitor = await createMonitor(r.ctx, who, { service: "github", label: `m${i}` })
      .catch(() => null);
    const id = monitor?.id ?? (await r.ctx.store.monitors.list(who.account.id, {
      page: 0,
      limit: 1,
    })).items[0]!.id;
    try {
      const sub = await createSubscription(r.ctx, who, {
        target: { kind: "monitor", id },
        email: target,
      });
      made++;
      await deleteSubscription(r.ctx, who, sub.id, null);
    } catch (e) {
      equal((e as { code?: string }).code, "rate_limited");
      refused++;
    }
  }
  await r.deliver();
  equal(made, CONFIRMATIONS_PER_ADDRESS.limit);
  equal(refused, 10 - CONFIRMATIONS_PER_ADDRESS.limit);
  ok(r.to(target).length <= CONFIRMATIONS_PER_ADDRESS.limit, `${r.to(target).length} mails`);
  // An email route naming it asks no more either, today.
  const route = await createRoute(r.ctx, accounts[0]!, {
    name: "to victim",
    settings: { kind: "email", to: [target] },
  });
  await r.deliver();
  ok(r.to(target).length <= CONFIRMATIONS_PER_ADDRESS.limit);
  equal(route.route.recipients?.[0]?.state, "pending");
  // The next day the address may be asked again.
  r.advance(CONFIRMATIONS_PER_ADDRESS.windowMs + 1);
  const who = accounts[1]!;
  const id = (await r.ctx.store.monitors.list(who.account.id, { page: 0, limit: 1 })).items[0]!.id;
  await createSubscription(r.ctx, who, { target: { kind: "monitor", id }, email: target });
});

Deno.test("after unsubscribing, no account can mail the address until its owner subscribes again", async () => {
  await using r = await rig();
  const a = await r.owner("a@example.com");
  const b = await r.owner("b@example.com");
  const mA = await createMonitor(r.ctx, a, { service: "github" });
  const mB = await createMonitor(r.ctx, b, { service: "github" });
  const sub = await createSubscription(r.ctx, a, {
    target: { kind: "monitor", id: mA.id },
    email: "reader@example.org",
  });
  await r.deliver();
  const mail = r.to("reader@example.org")[0]!;
  const unsubscribe = linkIn(mail.text, "/subscriptions/unsubscribe/");
  equal(await unsubscribeByLink(r.ctx, unsubscribe), true);
  await rejects(
    createSubscription(r.ctx, b, {
      target: { kind: "monitor", id: mB.id },
      email: "Reader@example.org",
    }),
    /unsubscribed from statusd mail on/,
  );
  await rejects(
    createRoute(r.ctx, b, { name: "x", settings: { kind: "email", to: ["reader@example.org"] } }),
    /unsubscribed from statusd mail on/,
  );
  await r.deliver();
  equal(r.to("reader@example.org").length, 1, "nothing after the unsubscribe");
  equal(await resubscribeByLink(r.ctx, unsubscribe), true, "the owner, from the same link");
  equal(
    (await r.ctx.store.subscriptions.byId(sub.id))!.state,
    "active",
  );
  await createSubscription(r.ctx, b, {
    target: { kind: "monitor", id: mB.id },
    email: "reader@example.org",
  });
});

Deno.test("a bounce suppresses the address; the route shows it", async () => {
  await using r = await rig();
  const admin = await r.owner("owner@example.com");
  r.smtp.refuseRecipient("nobody@example.net");
  const made = await createRoute(r.ctx, admin, {
    name: "Ops mail",
    settings: { kind: "email", to: ["nobody@example.net"] },
  });
  await r.deliver();
  equal(
    (await getRoute(r.ctx, admin, made.route.id)).recipients?.[0]?.state,
    "suppressed",
  );
  await rejects(
    createRoute(r.ctx, admin, {
      name: "y",
      settings: { kind: "email", to: ["nobody@example.net"] },
    }),
    /bounced on/,
  );
});

Deno.test("send test is limited per route and per account; FREE keeps three routes of three addresses", async () => {
  await using r = await rig();
  const admin = await r.owner("owner@example.com");
  const hook = (i: number) => ({
    name: `hook ${i}`,
    settings: { kind: "webhook", url: `https://hooks.example.com/${i}` },
  });
  const routes = [];
  for (let i = 0; i < 6; i++) routes.push((await createRoute(r.ctx, admin, hook(i))).route.id);
  for (let i = 0; i < SEND_TEST_LIMITS.route.limit; i++) await sendTest(r.ctx, admin, routes[0]!);
  await rejects(sendTest(r.ctx, admin, routes[0]!), /Too many requests/);
  let sent = SEND_TEST_LIMITS.route.limit;
  for (const id of routes.slice(1)) {
    for (
      let i = 0;
      i < SEND_TEST_LIMITS.route.limit && sent < SEND_TEST_LIMITS.account.limit;
      i++
    ) {
      await sendTest(r.ctx, admin, id);
      sent++;
    }
  }
  equal(sent, SEND_TEST_LIMITS.account.limit);
  await rejects(sendTest(r.ctx, admin, routes[5]!), /Too many requests/);

  const free = await r.owner("free@example.com", "FREE");
  for (let i = 0; i < FREE_ROUTES.routes; i++) await createRoute(r.ctx, free, hook(i));
  await rejects(createRoute(r.ctx, free, hook(9)), /requires the PRO plan/);
  const other = await r.owner("free2@example.com", "FREE");
  await rejects(
    createRoute(r.ctx, other, {
      name: "many",
      settings: { kind: "email", to: ["a@x.org", "b@x.org", "c@x.org", "d@x.org"] },
    }),
    /requires the PRO plan/,
  );
});
