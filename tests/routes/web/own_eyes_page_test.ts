/**
 * The service page's "statusd's own eyes": an early warning shown apart from the vendor's status,
 * the vendor's acknowledgement grade, and a member's "Not working for us" report from the page.
 * @module
 */
import { equal, match, ok } from "node:assert/strict";
import { MINUTE_MS } from "../../../domain/mod.ts";
import { account, PASSWORD } from "../../support/accounts.ts";
import { addVendor, apiRig, T0 } from "../../support/api.ts";
import { section, visibleText } from "../../support/html.ts";
import { formBrowser } from "../../support/web.ts";
import { episodeAt, openState } from "../../support/warnings.ts";

const HTML = { accept: "text/html" };

Deno.test("a suspected vendor's page says what statusd saw, apart from the vendor's status", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme", status: "OPERATIONAL" });
    const quiet = await (await r.get("/services/acme", HTML)).text();
    equal(/id="early-warning"/.test(quiet), false);
    const eyes = visibleText(section(quiet, "own-eyes"));
    match(eyes, /not enough data: 0 of the 3 episodes a grade needs in 90 days/);
    match(eyes, /Sign in to report that it is not working for you/);

    const id = (await r.store.catalog.service("acme"))!.id;
    await r.store.warnings.record(id, {
      answered: {},
      state: openState(episodeAt(T0 - 2 * MINUTE_MS, { suspectedAt: T0 })),
      finished: [],
    }, T0);
    r.cache.clear();
    const html = await (await r.get("/services/acme", HTML)).text();
    const note = /<p class="notice warn early-warning suspected"[^>]*>([\s\S]*?)<\/p>/.exec(html);
    ok(note, "the early warning is shown");
    equal(
      visibleText(note[1]!).trim(),
      "Early warning (statusd's own observation): statusd's own checks have seen errors from " +
        "api.acme.test since 11:58 UTC (2 of 2 failed); acme has not acknowledged it (its status " +
        "page reads operational).",
    );
    match(html, /<h1>acme <span class="badge s-OPERATIONAL">operational<\/span><\/h1>/);
  } finally {
    await r.close();
  }
});

Deno.test("a signed-in member reports from the page; the report is counted", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme", status: "OPERATIONAL" });
    const owner = await account(r.ctx, "owner@example.test");
    const b = formBrowser(r.app);
    const signed = await b.submit(
      "https://status.example.test/sign-in",
      "https://status.example.test/sign-in",
      {
        email: "owner@example.test",
        password: PASSWORD,
      },
    );
    equal(signed.status, 303);
    const sent = await b.submit(
      "https://status.example.test/services/acme",
      "https://status.example.test/services/acme/report",
      { note: "checkout returns 502" },
    );
    equal(sent.status, 303);
    equal(sent.headers.get("location"), "/services/acme?reported=1#own-eyes");
    const thanks = await (await b.get("https://status.example.test/services/acme?reported=1"))
      .text();
    match(visibleText(section(thanks, "own-eyes")), /Thanks: your report is counted/);
    // The member's account sees its own warning at once; an anonymous visitor does not.
    const note = /<p class="notice warn early-warning suspected"[^>]*>([\s\S]*?)<\/p>/.exec(thanks);
    ok(note, "the account's own early warning is shown to it");
    match(visibleText(note[1]!), /1 member of your account reported acme not working since/);
    match(visibleText(note[1]!), /Only your account sees this warning/);
    r.cache.clear();
    const anonymous = await (await r.get("/services/acme", HTML)).text();
    equal(/id="early-warning"/.test(anonymous), false);
    equal(/checkout returns 502/.test(thanks + anonymous), false, "the note is never shown");
    const id = (await r.store.catalog.service("acme"))!.id;
    equal(await r.store.warnings.recentReports(id, T0 - 30 * MINUTE_MS), null);
    const [stored] = await r.store.warnings.reportsOf(
      owner.account.id,
      10,
    );
    equal(stored!.note, "checkout returns 502");
    equal(stored!.reporter, "owner@example.test");
    // Without the form's token nothing is stored.
    const forged = await b.get("https://status.example.test/services/acme/report", {
      method: "POST",
      body: new URLSearchParams({ note: "forged" }),
    });
    equal(forged.status, 403);
    equal(
      (await r.store.warnings.reportsOf(
        owner.account.id,
        10,
      )).length,
      1,
    );
  } finally {
    await r.close();
  }
});

Deno.test("a board page lists statusd's public early warnings by vendor name, once its owner turns them on", async () => {
  const { createBoard, createMonitor } = await import("../../../app/mod.ts");
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme", status: "OPERATIONAL" });
    await addVendor(r.store, { slug: "calm", status: "OPERATIONAL" });
    const owner = await account(r.ctx, "owner@example.test");
    const admin = { kind: "admin", account: owner.account } as const;
    const a = await createMonitor(r.ctx, admin, { service: "acme" });
    const c = await createMonitor(r.ctx, admin, { service: "calm" });
    const board = await createBoard(r.ctx, admin, {
      slug: "stack",
      title: "Our stack",
      public: true,
      items: [{ kind: "monitor", id: a.id }, { kind: "monitor", id: c.id }],
    });
    const before = await (await r.get("/b/stack", HTML)).text();
    equal(/Early warning/.test(before), false);
    const id = (await r.store.catalog.service("acme"))!.id;
    await r.store.warnings.record(id, {
      answered: {},
      state: openState(
        episodeAt(T0 - 5 * MINUTE_MS, {
          suspectedAt: T0,
          evidence: "reports",
          failed: 0,
          total: 0,
          hosts: [],
          reporters: 2,
        }),
      ),
      finished: [],
    }, T0);
    // The owner's own report (its words) never reaches the board.
    const { reportTrouble, updateBoard } = await import("../../../app/mod.ts");
    await reportTrouble(r.ctx, admin, { service: "acme", component: "ACTION: rotate keys" });
    r.cache.clear();
    const off = visibleText(await (await r.get("/b/stack", HTML)).text());
    equal(/Early warning/.test(off), false, "off until the owner turns it on");
    await updateBoard(r.ctx, admin, board.id, { earlyWarning: true }, null);
    r.cache.clear();
    const html = await (await r.get("/b/stack", HTML)).text();
    const text = visibleText(html);
    match(
      text,
      /Early warning \(statusd's own observation\) .* acme: 2 accounts here reported it not working since 11:55 UTC; acme has not acknowledged it \(its status page reads operational\)\./,
    );
    equal(/calm:/.test(text), false);
    equal(/rotate keys|members reported/.test(text), false);
  } finally {
    await r.close();
  }
});

Deno.test("the home page lists what statusd's own eyes see, and says when its own network is at fault", async () => {
  const { createServer } = await import("../../../routes/mod.ts");
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme", status: "OPERATIONAL" });
    const quiet = await (await r.get("/", HTML)).text();
    equal(/id="early-warnings"/.test(quiet), false, "nothing to say: no section");
    const id = (await r.store.catalog.service("acme"))!.id;
    await r.store.warnings.record(id, {
      answered: {},
      state: openState(
        episodeAt(T0 - 3 * MINUTE_MS, {
          suspectedAt: T0,
          failed: 3,
          total: 3,
          hosts: ["acme.test"],
        }),
      ),
      finished: [],
    }, T0);
    r.cache.clear();
    const home = visibleText(section(await (await r.get("/", HTML)).text(), "early-warnings"));
    match(home, /statusd's own eyes \(1\)/);
    match(
      home,
      /acme: statusd's own checks have seen errors from acme\.test since 11:57 UTC \(3 of 3 failed\); acme has not acknowledged it \(its status page reads operational\)\./,
    );

    const app = createServer({
      app: r.ctx,
      proberStats: () => ({
        scope: "monitored",
        rounds: 9,
        probes: 40,
        failedProbes: 30,
        lastRoundAt: T0,
        suspected: 0,
        localOutage: { since: T0 - 2 * MINUTE_MS, failing: 9, probed: 10 },
      }),
    });
    const page = await (await app.request("https://status.example.test/", { headers: HTML }))
      .text();
    match(
      visibleText(section(page, "early-warnings")),
      /statusd's own probes of 9 of 10 vendors fail together since .*: its own network seems at fault, so no vendor is warned until they answer again\./,
    );
    const health = await (await app.request("https://status.example.test/healthz")).json();
    equal(health.status, "degraded");
    match(health.reasons.join(" "), /its own network seems at fault/);
    equal(health.probes.localOutage.failing, 9);
  } finally {
    await r.close();
  }
});
