/**
 * Subscribing by email from a public board's page (#31): the form posts an address, a real SMTP
 * server receives the confirmation (parsed by mailparser), nothing else comes until its link is
 * followed; then the board's changes arrive, each with a one-click unsubscribe; asking again
 * sends nothing more; a private board is a 404; without a mail server the page has no form.
 */
import { equal, match } from "node:assert/strict";
import { createBoard, createMonitor, evaluateAlerts, unsubscribeByLink } from "../../app/mod.ts";
import type { Caller } from "../../app/mod.ts";
import type { Snapshot, StatusLevel } from "../../domain/mod.ts";
import { createServer } from "../../routes/mod.ts";
import { account, testContext } from "../support/accounts.ts";
import { mailDelivery } from "../support/mail_delivery.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";
import { formBrowser } from "../support/web.ts";

const T0 = Math.floor(Date.now() / 1000) * 1000;
const page = (level: StatusLevel): Snapshot => ({
  indicator: level,
  components: [],
  incidents: [],
});

Deno.test("a board's readers subscribe by email: double opt-in, updates, one-click unsubscribe", async () => {
  let now = T0;
  await using ctx = testContext({ clock: { now: () => now }, mailEnabled: true });
  await syncVendors(ctx.store, [vendorOf({ slug: "github", name: "GitHub" })], T0 - 86_400_000);
  await recordReading(ctx.store, "github", page("OPERATIONAL"), T0 - 3_600_000);
  const who = await account(ctx, "owner@example.com");
  const admin: Caller = { kind: "admin", account: who.account };
  const monitor = await createMonitor(ctx, admin, { service: "github" });
  await createBoard(ctx, admin, {
    slug: "acme-status",
    title: "Acme status",
    public: true,
    items: [{ kind: "monitor", id: monitor.id }],
  });
  await evaluateAlerts(ctx);
  const app = createServer({ app: ctx });
  const delivery = await mailDelivery(ctx);
  const { smtp, deliver } = delivery;
  const flip = async (level: StatusLevel) => {
    now += 60_000;
    await recordReading(ctx.store, "github", page(level), now);
    await evaluateAlerts(ctx);
    await deliver();
  };
  const subscribe = (email: string, slug = "acme-status") =>
    app.request(`/b/${slug}/subscribe`, {
      method: "POST",
      headers: { accept: "text/html" },
      body: new URLSearchParams({ email }),
    });
  try {
    const board = await (await app.request("/b/acme-status")).text();
    match(board, /<form method="post" action="\/b\/acme-status\/subscribe"/);
    const res = await subscribe("reader@example.com");
    equal(res.status, 200);
    match(await res.text(), /a mail asking to confirm is on its way/);
    await deliver();
    equal(smtp.messages.length, 1);
    const confirmation = smtp.messages[0]!;
    equal(
      confirmation.to && "text" in confirmation.to ? confirmation.to.text : "",
      "reader@example.com",
    );
    equal(confirmation.subject, "Confirm your subscription to Acme status");
    // Asking again (a double click, or someone else) sends nothing more and answers the same.
    const again = await subscribe("Reader@Example.com");
    equal(again.status, 200);
    match(await again.text(), /a mail asking to confirm is on its way/);
    await deliver();
    equal(smtp.messages.length, 1);
    await flip("MAJOR_OUTAGE");
    equal(smtp.messages.length, 1, "nothing before the address confirms");
    const confirm = /(http:\/\/localhost:8080\/subscriptions\/confirm\/\S+)/.exec(
      confirmation.text!,
    )![1]!;
    // The link opens a page whose button confirms (link scanners only GET).
    const path = new URL(confirm).pathname;
    const confirmed = await formBrowser(app).submit(path, path, {});
    equal(confirmed.status, 200);
    await flip("OPERATIONAL");
    equal(smtp.messages.length, 2, "the board's change arrives");
    const change = smtp.messages[1]!;
    match(change.subject!, /GitHub/);
    const unsubscribe = change.headerLines.find((h) => h.key === "list-unsubscribe")!.line;
    const link = /unsubscribe\/(\S+)>/.exec(unsubscribe)![1]!;
    equal(await unsubscribeByLink(ctx, link), true);
    await flip("MAJOR_OUTAGE");
    equal(smtp.messages.length, 2, "nothing after unsubscribing");

    equal((await subscribe("not an address")).status, 400);
    await createBoard(ctx, admin, { slug: "hidden", title: "Hidden", public: false });
    equal((await subscribe("reader@example.com", "hidden")).status, 404);
  } finally {
    await delivery.close();
  }
});

Deno.test("without a mail server a board page offers no email form and refuses one", async () => {
  await using ctx = testContext();
  await syncVendors(ctx.store, [vendorOf({ slug: "github" })], T0 - 86_400_000);
  const who = await account(ctx, "owner@example.com");
  const admin: Caller = { kind: "admin", account: who.account };
  const monitor = await createMonitor(ctx, admin, { service: "github" });
  await createBoard(ctx, admin, {
    slug: "acme-status",
    title: "Acme status",
    public: true,
    items: [{ kind: "monitor", id: monitor.id }],
  });
  const app = createServer({ app: ctx });
  equal((await (await app.request("/b/acme-status")).text()).includes("/subscribe"), false);
  const res = await app.request("/b/acme-status/subscribe", {
    method: "POST",
    headers: { accept: "text/html" },
    body: new URLSearchParams({ email: "reader@example.com" }),
  });
  equal(res.status, 400);
  match(await res.text(), /has not set up a mail server/);
});
