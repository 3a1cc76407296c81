/**
 * Settings > Monitors without a browser (issue #12): search and add a monitor, choose its
 * components, group and order monitors, publish a board and read it signed out; refusals
 * (bad input, FREE limits, CSRF, another account's monitor) come back as the page with the
 * message next to the form, never a lost or half-made change.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { listBoards, listGroups, listMonitors } from "../../../app/mod.ts";
import type { Snapshot } from "../../../domain/mod.ts";
import { createServer } from "../../../routes/mod.ts";
import { account, PASSWORD, setPlanInStore, T0, testContext } from "../../support/accounts.ts";
import { recordReading, syncVendors, vendorOf } from "../../support/seed.ts";
import { csrfOf, formBrowser } from "../../support/web.ts";

const PAGE = "/settings/monitors";

function aws(): Snapshot {
  return {
    indicator: "OPERATIONAL",
    components: ["eu-west-1", "us-east-1"].map((r) => ({
      externalId: r,
      name: `Amazon EC2 (${r})`,
      group: null,
      status: "OPERATIONAL",
    })),
    incidents: [],
  };
}

async function setup() {
  const ctx = testContext();
  await syncVendors(ctx.store, [
    vendorOf({ slug: "aws", name: "AWS" }),
    vendorOf({ slug: "github", name: "GitHub" }),
  ], T0 - 40 * 86_400_000);
  await recordReading(ctx.store, "aws", aws(), T0 - 86_400_000);
  const who = await account(ctx, "owner@example.com");
  const app = createServer({ app: ctx });
  const b = formBrowser(app);
  const signedIn = await b.submit("/sign-in", "/sign-in", {
    email: "owner@example.com",
    password: PASSWORD,
  });
  equal(signedIn.status, 303);
  const all = { page: 0, limit: 100 };
  const caller = { kind: "session" as const, account: who.account, member: who.member };
  const state = async () => ({
    monitors: (await listMonitors(ctx, caller, all)).content,
    groups: (await listGroups(ctx, caller, all)).content,
    boards: (await listBoards(ctx, caller, all)).content,
  });
  // \`await using\` closes the store when the test ends (on PostgreSQL, its pool).
  return Object.assign({ ctx, app, b, who, state }, {
    [Symbol.asyncDispose]: () => ctx.store.close(),
  });
}

Deno.test("settings › monitors: search, add, choose components, and read what the page shows", async () => {
  await using rig = await setup();
  const { b, state } = rig;
  const found = await (await b.get(`${PAGE}?q=aws`)).text();
  match(found, /aria-label="Add AWS"/);
  const added = await b.submit(`${PAGE}?q=aws`, PAGE, { service: "aws" });
  equal(added.status, 303);
  const [m] = (await state()).monitors;
  equal(added.headers.get("location"), `${PAGE}/${m!.id}?added=1`);
  const edit = await (await b.get(`${PAGE}/${m!.id}`)).text();
  match(edit, /value="Amazon EC2 \(eu-west-1\)"/);
  match(edit, /value="Amazon EC2 \(us-east-1\)"/);
  const saved = await b.submit(`${PAGE}/${m!.id}`, `${PAGE}/${m!.id}`, {
    label: "compute",
    components: ["Amazon EC2 (eu-west-1)"],
  });
  equal(saved.status, 303);
  equal(saved.headers.get("location"), `${PAGE}?done=saved`);
  const after = (await state()).monitors[0]!;
  deepStrictEqual(after.components, ["Amazon EC2 (eu-west-1)"]);
  equal(after.label, "compute");
  const page = await (await b.get(`${PAGE}?done=saved`)).text();
  match(page, /Monitor saved\./);
  match(page, /Amazon EC2 \(eu-west-1\)/);
  match(page, /\(monitored\)|Your monitors \(1\)/);
  const stranger = await (await b.get(`${PAGE}?done=%3Cscript%3Ealert(1)%3C/script%3E`)).text();
  ok(!stranger.includes("<script>alert"), "?done= is a code, never echoed");
  const bad = await b.submit(`${PAGE}/${after.id}`, `${PAGE}/${after.id}`, {
    components: ["Amazon EC2 (mars-1)"],
  });
  equal(bad.status, 400);
  match(await bad.text(), /is not a component of aws/);
  deepStrictEqual((await state()).monitors[0]!.components, ["Amazon EC2 (eu-west-1)"], "kept");
  const removed = await b.submit(PAGE, `${PAGE}/${after.id}/delete`, {});
  equal(removed.status, 303);
  equal((await state()).monitors.length, 0);
});

Deno.test("settings › monitors: groups are created, filled, reordered and deleted", async () => {
  await using rig = await setup();
  const { b, state } = rig;
  await b.submit(PAGE, PAGE, { service: "aws" });
  await b.submit(PAGE, PAGE, { service: "github" });
  const [m1, m2] = (await state()).monitors;
  equal((await b.submit(PAGE, "/settings/groups", { name: "Core" })).status, 303);
  const g = (await state()).groups[0]!;
  const filled = await b.submit(PAGE, `/settings/groups/${g.id}`, {
    name: "Core stack",
    monitors: [m1!.id, m2!.id],
  });
  equal(filled.status, 303);
  let group = (await state()).groups[0]!;
  equal(group.name, "Core stack");
  deepStrictEqual(group.monitorIds, [m1!.id, m2!.id]);
  const page = await (await b.get(PAGE)).text();
  match(page, /aria-label="Move AWS down"/);
  equal(
    (await b.submit(PAGE, `/settings/groups/${g.id}/move`, { item: m1!.id, dir: "down" })).status,
    303,
  );
  group = (await state()).groups[0]!;
  deepStrictEqual(group.monitorIds, [m2!.id, m1!.id]);
  // Unticking one keeps the order of the rest.
  await b.submit(PAGE, `/settings/groups/${g.id}`, { name: "Core stack", monitors: [m1!.id] });
  deepStrictEqual((await state()).groups[0]!.monitorIds, [m1!.id]);
  const empty = await b.submit(PAGE, `/settings/groups/${g.id}`, { name: " " });
  equal(empty.status, 400);
  match(await empty.text(), /name: /);
  equal((await state()).groups[0]!.name, "Core stack");
  equal((await b.submit(PAGE, `/settings/groups/${g.id}/delete`, {})).status, 303);
  equal((await state()).groups.length, 0);
  equal((await state()).monitors.length, 2, "a group's monitors stay");
});

Deno.test("settings › monitors: a board is created, laid out, published and read signed out", async () => {
  await using rig = await setup();
  const { app, b, state, ctx, who } = rig;
  await b.submit(PAGE, PAGE, { service: "aws" });
  await b.submit(PAGE, "/settings/groups", { name: "Code" });
  const { monitors, groups } = await state();
  const made = await b.submit(PAGE, "/settings/boards", { slug: "acme-stack", title: "Acme" });
  equal(made.status, 303);
  const board = (await state()).boards[0]!;
  equal(board.public, false);
  equal((await app.request("/b/acme-stack")).status, 404, "private until published");
  await b.submit(PAGE, `/settings/boards/${board.id}`, {
    title: "Acme stack",
    public: "yes",
    items: [`monitor:${monitors[0]!.id}`, `group:${groups[0]!.id}`],
  });
  let saved = (await state()).boards[0]!;
  equal(saved.public, true);
  deepStrictEqual(saved.items.map((i) => i.kind), ["monitor", "group"]);
  await b.submit(PAGE, `/settings/boards/${board.id}/move`, {
    item: `group:${groups[0]!.id}`,
    dir: "up",
  });
  saved = (await state()).boards[0]!;
  deepStrictEqual(saved.items.map((i) => i.kind), ["group", "monitor"]);
  const publicPage = await app.request("/b/acme-stack");
  equal(publicPage.status, 200);
  const html = await publicPage.text();
  match(html, /Acme stack/);
  match(html, /AWS/);
  const taken = await b.submit(PAGE, "/settings/boards", { slug: "Bad Slug!", title: "x" });
  equal(taken.status, 400);
  match(await taken.text(), /lower-case letters, digits and dashes/);
  await setPlanInStore(ctx, who.account.id, "FREE");
  const second = await b.submit(PAGE, "/settings/boards", { slug: "second", title: "Two" });
  equal(second.status, 403);
  match(await second.text(), /More than 1 board/);
  equal((await state()).boards.length, 1);
  equal((await b.submit(PAGE, `/settings/boards/${board.id}/delete`, {})).status, 303);
  equal((await app.request("/b/acme-stack")).status, 404);
});

Deno.test("settings › monitors: signed out goes to sign-in; no CSRF token is 403; another account's monitor is 404", async () => {
  await using rig = await setup();
  const { app, b, ctx, state } = rig;
  const anonymous = formBrowser(app);
  const res = await anonymous.get(PAGE);
  equal(res.status, 303);
  equal(res.headers.get("location"), `/sign-in?next=${encodeURIComponent(PAGE)}`);
  const forged = await b.get(PAGE, {
    method: "POST",
    body: new URLSearchParams({ service: "aws" }),
  });
  equal(forged.status, 403);
  equal((await state()).monitors.length, 0);
  await account(ctx, "other@example.com");
  const other = formBrowser(app);
  await other.submit("/sign-in", "/sign-in", { email: "other@example.com", password: PASSWORD });
  await b.submit(PAGE, PAGE, { service: "aws" });
  const mine = (await state()).monitors[0]!;
  equal((await other.get(`${PAGE}/${mine.id}`)).status, 404);
  const theirs = await other.submit(PAGE, `${PAGE}/${mine.id}/delete`, {});
  equal(theirs.status, 404);
  equal((await state()).monitors.length, 1);
  const unknown = await b.submit(PAGE, PAGE, { service: "nope" });
  equal(unknown.status, 400);
  match(await unknown.text(), /no service &quot;nope&quot; in the catalog|no service "nope"/);
});

Deno.test("settings › monitors: removing a monitor, a group or a board asks first; cancelling keeps it", async () => {
  await using rig = await setup();
  const { b, state } = rig;
  await b.submit(PAGE, PAGE, { service: "aws" });
  await b.submit(PAGE, "/settings/groups", { name: "Core" });
  await b.submit(PAGE, "/settings/boards", { slug: "acme-stack", title: "Acme stack" });
  const { monitors, groups, boards } = await state();
  const page = await (await b.get(PAGE)).text();
  for (
    const [path, question, button] of [
      [`${PAGE}/${monitors[0]!.id}/delete`, /Stop watching AWS\?/, "Remove monitor"],
      [
        `/settings/groups/${groups[0]!.id}/delete`,
        /Delete the group Core\? Its monitors stay\./,
        "Delete group",
      ],
      [`/settings/boards/${boards[0]!.id}/delete`, /Delete the board Acme stack\?/, "Delete board"],
    ] as const
  ) {
    // The page links the question, not a button that deletes at once.
    match(page, new RegExp(`<a class="danger" href="${path}"`));
    const ask = await b.get(path);
    equal(ask.status, 200, path);
    const html = await ask.text();
    match(html, question);
    match(html, new RegExp(`<form method="post" action="${path}" class="inline">`));
    match(html, new RegExp(`<button type="submit" class="danger">${button}</button>`));
    match(html, /<a href="\/settings\/monitors">Cancel<\/a>/);
  }
  // Only asking changed nothing; the answer does.
  const before = await state();
  equal(before.monitors.length + before.groups.length + before.boards.length, 3);
  equal(
    (await b.submit(`${PAGE}/${monitors[0]!.id}/delete`, `${PAGE}/${monitors[0]!.id}/delete`, {}))
      .status,
    303,
  );
  equal((await state()).monitors.length, 0);
});

Deno.test("settings › monitors: a board's description, colour and logo are set from its form", async () => {
  await using rig = await setup();
  const { b, state } = rig;
  await b.submit(PAGE, "/settings/boards", { slug: "acme-stack", title: "Acme stack" });
  const board = (await state()).boards[0]!;
  const html = await (await b.get(PAGE)).text();
  match(
    html,
    /<form method="post" action="\/settings\/boards\/[^"]+" class="stack" enctype="multipart\/form-data">/,
  );
  const png = Uint8Array.from(
    atob(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    ),
    (c) => c.charCodeAt(0),
  );
  const form = new FormData();
  form.set("_csrf", csrfOf(html));
  form.set("title", "Acme stack");
  form.set("public", "yes");
  form.set("description", "What our checkout needs.");
  form.set("accentColor", "#8250df");
  form.set("files", new File([png], "logo.png", { type: "image/png" }));
  const saved = await b.get(`/settings/boards/${board.id}`, { method: "POST", body: form });
  equal(saved.status, 303);
  const after = (await state()).boards[0]!;
  deepStrictEqual([after.description, after.accentColor, after.logo?.type], [
    "What our checkout needs.",
    "#8250df",
    "image/png",
  ]);
  // A file that is not an image is refused, naming the logo; the board keeps its logo.
  const again = await (await b.get(PAGE)).text();
  const bad = new FormData();
  bad.set("_csrf", csrfOf(again));
  bad.set("title", "Acme stack");
  bad.set("files", new File(["<svg/>"], "logo.svg", { type: "image/svg+xml" }));
  const refused = await b.get(`/settings/boards/${board.id}`, { method: "POST", body: bad });
  equal(refused.status, 400);
  match(await refused.text(), /logo: a data: URL of a PNG, JPEG or WebP image/);
  equal((await state()).boards[0]!.logo?.type, "image/png");
});
