/**
 * `/api/user/groups`, `/api/user/boards` and `/api/boards/{slug}` through REST: CRUD, If-Match,
 * cross-account 404s, unknown ids and taken slugs as 400s, the FREE board limit, a group's level
 * as the worst of its monitors, and a public board readable without a key while a private one
 * is not.
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import type { StatusLevel } from "../../../domain/mod.ts";
import { BADGE_LOOK } from "../../../routes/feeds/mod.ts";
import { createServer } from "../../../routes/mod.ts";
import { account, key, setPlanInStore, T0, testContext } from "../../support/accounts.ts";
import { addIncident, setStatus, syncVendors, vendorOf } from "../../support/seed.ts";
import { ShieldsEndpointSchema } from "../../support/shields.ts";

async function setup(opts: Parameters<typeof testContext>[0] = {}) {
  const ctx = testContext(opts);
  await syncVendors(ctx.store, [vendorOf({ slug: "github" }), vendorOf({ slug: "stripe" })], T0);
  await setStatus(ctx.store, "github", "OPERATIONAL", T0 - 86_400_000);
  await setStatus(ctx.store, "stripe", "OPERATIONAL", T0 - 86_400_000);
  const app = createServer({ app: ctx });
  const who = await account(ctx, "owner@example.com");
  const secret = await key(ctx, who, "rw", ["monitors:read", "monitors:write"]);
  const auth: Record<string, string> = { "X-API-Key": secret };
  const send = async (method: string, path: string, body?: unknown, headers = auth) => {
    const res = await app.request(path, {
      method,
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { res, body: text ? JSON.parse(text) : null };
  };
  const gh = (await send("POST", "/api/user/monitors", { service: "github" })).body;
  const st = (await send("POST", "/api/user/monitors", { service: "stripe" })).body;
  // \`await using\` closes the store when the test ends (on PostgreSQL, its pool).
  return Object.assign({ ctx, app, who, send, gh, st, auth }, {
    [Symbol.asyncDispose]: () => ctx.store.close(),
  });
}

Deno.test("groups: CRUD, the worst of its monitors, If-Match, unknown monitor ids", async () => {
  await using rig = await setup();
  const { ctx, send, gh, st, auth } = rig;
  const made = await send("POST", "/api/user/groups", {
    name: "payments path",
    monitors: [gh.id, st.id],
  });
  equal(made.res.status, 201);
  equal(made.res.headers.get("location"), `/api/user/groups/${made.body.id}`);
  equal(made.body.currentStatus, "OPERATIONAL");
  await setStatus(ctx.store, "stripe", "PARTIAL_OUTAGE", T0);
  const read = await send("GET", `/api/user/groups/${made.body.id}`);
  equal(read.body.currentStatus, "PARTIAL_OUTAGE");
  deepStrictEqual(read.body.monitors.map((m: { service: string }) => m.service), [
    "github",
    "stripe",
  ]);
  const patched = await send("PATCH", `/api/user/groups/${made.body.id}`, { monitors: [gh.id] }, {
    ...auth,
    "If-Match": '"v1"',
  });
  equal(patched.res.status, 200);
  equal(patched.body.currentStatus, "OPERATIONAL");
  const stale = await send("PATCH", `/api/user/groups/${made.body.id}`, { name: "x" }, {
    ...auth,
    "If-Match": '"v1"',
  });
  equal(stale.res.status, 412);
  const bad = await send("POST", "/api/user/groups", { name: "x", monitors: ["mon_nope"] });
  equal(bad.res.status, 400);
  equal(bad.body.issues[0].parameter, "monitors.0");
  equal((await send("DELETE", `/api/user/groups/${made.body.id}`)).res.status, 204);
  equal((await send("GET", `/api/user/groups/${made.body.id}`)).res.status, 404);
});

Deno.test("boards: public ones are open, private ones are 404 to others; slugs unique; FREE keeps one", async () => {
  await using rig = await setup();
  const { ctx, app, who, send, gh, st } = rig;
  const group = (await send("POST", "/api/user/groups", { name: "pay", monitors: [st.id] })).body;
  const made = await send("POST", "/api/user/boards", {
    slug: "Acme-Stack",
    title: "Everything Acme depends on",
    items: [{ kind: "monitor", id: gh.id }, { kind: "group", id: group.id }],
  });
  equal(made.res.status, 201);
  equal(made.body.slug, "acme-stack");
  equal(made.body.public, false);
  deepStrictEqual(made.body.entries.map((e: { name: string }) => e.name), ["github", "pay"]);
  equal(made.body.entries[0].history.length, 90);

  // Private: a 404 without a key and to another account; its own key reads it.
  equal((await app.request("/api/boards/acme-stack")).status, 404);
  const stranger = await account(ctx, "other@example.com");
  const theirs = await key(ctx, stranger, "rw", ["monitors:read", "monitors:write"]);
  equal(
    (await app.request("/api/boards/acme-stack", { headers: { "X-API-Key": theirs } })).status,
    404,
  );
  equal((await send("GET", "/api/boards/acme-stack")).res.status, 200);
  equal(
    (await send("GET", `/api/user/boards/${made.body.id}`, undefined, { "X-API-Key": theirs })).res
      .status,
    404,
  );

  // Public: anyone reads it, with each entry's level and history.
  await send("PATCH", `/api/user/boards/${made.body.id}`, { public: true });
  await setStatus(ctx.store, "stripe", "MAJOR_OUTAGE", T0);
  const open = await app.request("/api/boards/acme-stack");
  equal(open.status, 200);
  const board = await open.json();
  equal(board.currentStatus, "MAJOR_OUTAGE");
  deepStrictEqual(board.entries.map((e: { currentStatus: string }) => e.currentStatus), [
    "OPERATIONAL",
    "MAJOR_OUTAGE",
  ]);

  const taken = await send("POST", "/api/user/boards", { slug: "acme-stack", title: "again" }, {
    "X-API-Key": theirs,
  });
  equal(taken.res.status, 400);
  equal(taken.body.issues[0].parameter, "slug");
  const badItem = await send("POST", "/api/user/boards", {
    slug: "other",
    title: "x",
    items: [{ kind: "group", id: gh.id }],
  });
  equal(badItem.res.status, 400);
  equal(badItem.body.issues[0].parameter, "items.0");

  await setPlanInStore(ctx, who.account.id, "FREE");
  const second = await send("POST", "/api/user/boards", { slug: "second", title: "x" });
  equal(second.res.status, 403);
  equal(second.body.error, "plan_required");
  match(second.body.message, /More than 1 board/);
});

Deno.test("the board page /b/{slug}: a public board for people; a private one is the HTML 404", async () => {
  await using rig = await setup();
  const { ctx, app, send, gh, st } = rig;
  const group = (await send("POST", "/api/user/groups", { name: "Payments", monitors: [st.id] }))
    .body;
  const made = (await send("POST", "/api/user/boards", {
    slug: "our-stack",
    title: "Everything we depend on",
    items: [{ kind: "monitor", id: gh.id }, { kind: "group", id: group.id }],
  })).body;
  const html = { accept: "text/html" };
  const hidden = await app.request("/b/our-stack", { headers: html });
  equal(hidden.status, 404);
  match(await hidden.text(), /<html/);
  await send("PATCH", `/api/user/boards/${made.id}`, { public: true });
  await setStatus(ctx.store, "stripe", "MAJOR_OUTAGE", T0);
  const page = await app.request("/b/our-stack", { headers: html });
  equal(page.status, 200);
  const text = await page.text();
  match(text, /<h1>Everything we depend on<\/h1>/);
  // The banner says in words what is affected now.
  match(text, /Major outage on 1 service of 2/);
  match(text, /<li[^>]*>Payments \(stripe\): major outage<\/li>/);
  match(text, /Payments/);
  equal((text.match(/<ol class="days"/g) ?? []).length, 2, "a 90-day bar per entry");
  // A status page of its own: no statusd navigation, but its freshness and ways to follow it.
  for (const admin of ["/settings/monitors", "/settings/api-keys", "/sign-in", "/settings/mcp"]) {
    equal(text.includes(`href="${admin}"`), false, `no link to ${admin}`);
  }
  match(text, /Last updated <time datetime="[^"]+">/);
  match(text, /% uptime over the \d+ (min|h|d)[^<]* observed|% uptime over 30 days|no uptime yet/);
  match(text, /read \d+ (min|h|d)[^<]* ago|not read yet/);
  for (const follow of ["feed.atom", "feed.rss", "calendar.ics", "badge.json"]) {
    match(text, new RegExp(`href="/b/our-stack/${follow.replace(".", "\\.")}"`));
  }
});

Deno.test("a public board's badge, feeds and calendar cover the services on it", async () => {
  await using rig = await setup();
  const { ctx, app, send, gh } = rig;
  const made = (await send("POST", "/api/user/boards", {
    slug: "our-stack",
    title: "Our stack",
    public: true,
    items: [{ kind: "monitor", id: gh.id }],
  })).body;
  await addIncident(ctx.store, "github", {
    externalId: "g1",
    title: "Git pushes failing",
    status: "INVESTIGATING",
    impact: "MAJOR",
    startedAt: T0 - 3_600_000,
  }, T0 - 3_600_000);
  await addIncident(ctx.store, "stripe", {
    externalId: "s1",
    title: "Stripe payouts delayed",
    status: "INVESTIGATING",
    impact: "MINOR",
    startedAt: T0 - 3_600_000,
  }, T0 - 3_600_000);
  await addIncident(ctx.store, "github", {
    externalId: "m1",
    title: "Database upgrade",
    status: "SCHEDULED",
    impact: "MAINTENANCE",
    startedAt: T0 + 86_400_000,
    scheduledStartAt: T0 + 86_400_000,
    scheduledEndAt: T0 + 90_000_000,
  }, T0 - 3_600_000);
  await addIncident(ctx.store, "stripe", {
    externalId: "m2",
    title: "Stripe maintenance",
    status: "SCHEDULED",
    impact: "MAINTENANCE",
    startedAt: T0 + 86_400_000,
    scheduledStartAt: T0 + 86_400_000,
    scheduledEndAt: T0 + 90_000_000,
  }, T0 - 3_600_000);

  const badge = await app.request("/badge/board/our-stack.svg");
  equal(badge.status, 200);
  match(badge.headers.get("content-type") ?? "", /^image\/svg\+xml/);
  match(await badge.text(), /Our stack/);
  const shields = await app.request("/b/our-stack/badge.json");
  equal(shields.status, 200);
  const endpoint = ShieldsEndpointSchema.parse(await shields.json());
  const level = (await (await app.request("/api/boards/our-stack")).json()).currentStatus;
  deepStrictEqual(
    [endpoint.label, endpoint.message, endpoint.color],
    ["Our stack", BADGE_LOOK[level as StatusLevel].message, BADGE_LOOK[level as StatusLevel].color],
  );
  for (const ext of ["rss", "atom"]) {
    const feed = await app.request(`/b/our-stack/feed.${ext}`);
    equal(feed.status, 200);
    const text = await feed.text();
    match(text, /Git pushes failing/);
    equal(text.includes("Stripe payouts delayed"), false, "only the board's services");
  }
  const own = await app.request("/b/our-stack/calendar.ics");
  equal(own.status, 200);
  const calendar = await own.text();
  equal(calendar, await (await app.request("/calendar.ics?board=our-stack")).text());
  match(calendar, /Database upgrade/);
  equal(calendar.includes("Stripe maintenance"), false);

  await send("PATCH", `/api/user/boards/${made.id}`, { public: false });
  equal((await app.request("/badge/board/our-stack.svg?style=flat-square")).status, 404);
  const hidden = await app.request("/b/our-stack/badge.json?label=x");
  equal(hidden.status, 404);
  equal(ShieldsEndpointSchema.parse(await hidden.json()).isError, true);
  equal((await app.request("/b/our-stack/feed.rss?again")).status, 404);
  equal((await app.request("/calendar.ics?board=our-stack&again")).status, 404);
  equal((await app.request("/b/our-stack/calendar.ics?again")).status, 404);
});

Deno.test("a board's status page carries its description, links and accent colour; PATCH merges them", async () => {
  await using rig = await setup();
  const { app, send, gh } = rig;
  const made = await send("POST", "/api/user/boards", {
    slug: "acme-status",
    title: "Acme status",
    public: true,
    items: [{ kind: "monitor", id: gh.id }],
    description: "The services Acme's checkout depends on.",
    accentColor: "#D1242F",
    links: [{ label: "Acme", url: "https://acme.example/" }, {
      label: "Support",
      url: "https://acme.example/help",
    }],
  });
  equal(made.res.status, 201);
  deepStrictEqual(
    [made.body.description, made.body.accentColor, made.body.links.length],
    ["The services Acme's checkout depends on.", "#d1242f", 2],
  );
  // PATCH is a merge: a title change keeps the rest; null clears the colour.
  const renamed = await send("PATCH", `/api/user/boards/${made.body.id}`, { title: "Acme" });
  deepStrictEqual([renamed.body.title, renamed.body.accentColor, renamed.body.links.length], [
    "Acme",
    "#d1242f",
    2,
  ]);
  const page = await (await app.request("/b/acme-status")).text();
  match(page, /<p class="lead">The services Acme&#39;s checkout depends on\.<\/p>/);
  match(page, /<a href="https:\/\/acme\.example\/help" rel="nofollow noopener">Support<\/a>/);
  match(page, /<link rel="stylesheet" href="\/b\/acme-status\/theme\.css\?c=d1242f"\/?>/);
  const theme = await app.request("/b/acme-status/theme.css?c=d1242f");
  equal(theme.status, 200);
  match(theme.headers.get("content-type") ?? "", /^text\/css/);
  equal(await theme.text(), ":root{--brand:#d1242f}\n");
  const cleared = await send("PATCH", `/api/user/boards/${made.body.id}`, { accentColor: null });
  equal(cleared.body.accentColor, null);
  equal((await (await app.request("/b/acme-status?x")).text()).includes("theme.css"), false);

  for (
    const [field, body] of [
      ["accentColor", { accentColor: "red" }],
      ["links.0.url", { links: [{ label: "x", url: "javascript:alert(1)" }] }],
      ["description", { description: "x".repeat(1001) }],
      ["links", { links: Array.from({ length: 6 }, () => ({ label: "x", url: "https://a.b/" })) }],
    ] as const
  ) {
    const bad = await send("PATCH", `/api/user/boards/${made.body.id}`, body);
    equal(bad.res.status, 400, field);
    equal(bad.body.issues[0].parameter, field);
  }
  equal((await send("GET", `/api/user/boards/${made.body.id}`)).body.title, "Acme", "unchanged");
});

Deno.test("the embed page may be framed by any site; the board page and every other page may not", async () => {
  await using rig = await setup();
  const { app, send, gh } = rig;
  await send("POST", "/api/user/boards", {
    slug: "acme-status",
    title: "Acme status",
    public: true,
    items: [{ kind: "monitor", id: gh.id }],
  });
  const embed = await app.request("/b/acme-status/embed");
  equal(embed.status, 200);
  match(embed.headers.get("content-security-policy") ?? "", /frame-ancestors \*/);
  equal(embed.headers.get("x-frame-options"), null);
  const html = await embed.text();
  match(html, /Acme status: All systems operational/);
  match(html, /<li>github: <strong>operational<\/strong><\/li>/);
  equal(html.includes("<script"), false, "JavaScript-free");
  for (const path of ["/b/acme-status", "/", "/services/github", "/b/nobody/embed"]) {
    const res = await app.request(path);
    match(res.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/, path);
    equal(res.headers.get("x-frame-options"), "DENY", path);
  }
});

Deno.test("a board on its own host: the page at /, its feeds and files, and nothing else of statusd", async () => {
  await using rig = await setup({ publicUrl: "https://status.example.test" });
  const { app, send, gh } = rig;
  const made = (await send("POST", "/api/user/boards", {
    slug: "acme-status",
    title: "Acme status",
    public: true,
    items: [{ kind: "monitor", id: gh.id }],
    host: "Status.Acme.test",
    accentColor: "#0b5cad",
  })).body;
  equal(made.host, "status.acme.test");
  const on = (path: string, headers: Record<string, string> = {}) =>
    app.request(`http://status.acme.test${path}`, { headers });
  const page = await on("/");
  equal(page.status, 200);
  const html = await page.text();
  match(html, /<h1>Acme status<\/h1>/);
  match(html, /href="\/feed\.atom"/, "its files by their short names");
  match(html, /href="\/theme\.css\?c=0b5cad"/);
  equal(html.includes("/b/acme-status"), false);
  for (
    const [path, type] of [
      ["/feed.atom", /atom/],
      ["/feed.rss", /rss/],
      ["/calendar.ics", /text\/calendar/],
      ["/badge.json", /json/],
      ["/embed", /text\/html/],
      ["/theme.css", /text\/css/],
    ] as const
  ) {
    const res = await on(path);
    equal(res.status, 200, path);
    match(res.headers.get("content-type") ?? "", type, path);
  }
  const css = html.match(/href="(\/assets\/site\.css[^"]*)"/)![1]!;
  equal((await on(css)).status, 200, "the shared stylesheet");
  for (
    const path of ["/services", "/services/github", "/api/services", "/settings/monitors", "/docs"]
  ) {
    equal((await on(path, { accept: "text/html" })).status, 404, path);
  }
  // statusd's own host is unchanged, and the marker cannot be sent from outside.
  const home = await app.request("https://status.example.test/b/acme-status", {
    headers: { "x-statusd-board-host": "status.acme.test" },
  });
  match(await home.text(), /href="\/b\/acme-status\/feed\.atom"/);
  // Another board may not take the host, nor statusd's own; a private board's host is a 404.
  const twin = await send("POST", "/api/user/boards", {
    slug: "twin",
    title: "Twin",
    host: "status.acme.test",
  });
  equal(twin.res.status, 400);
  equal(twin.body.issues[0].parameter, "host");
  const own = await send("PATCH", `/api/user/boards/${made.id}`, { host: "status.example.test" });
  equal(own.res.status, 400);
  equal(
    (await send("PATCH", `/api/user/boards/${made.id}`, { host: "localhost:8080" })).res.status,
    400,
  );
  await send("PATCH", `/api/user/boards/${made.id}`, { public: false });
  equal((await on("/", { accept: "text/html" })).status, 404);
});

Deno.test("a board's logo: a PNG, JPEG or WebP up to 100 KB, checked by its bytes, served with its page", async () => {
  await using rig = await setup();
  const { app, send, gh } = rig;
  const made = (await send("POST", "/api/user/boards", {
    slug: "acme-status",
    title: "Acme status",
    public: true,
    items: [{ kind: "monitor", id: gh.id }],
  })).body;
  equal(made.logoUrl, null);
  // A real 1×1 PNG.
  const png =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
  const set = await send("PATCH", `/api/user/boards/${made.id}`, {
    logo: `data:image/png;base64,${png}`,
  });
  equal(set.res.status, 200);
  equal(set.body.logoUrl, "/b/acme-status/logo");
  equal(JSON.stringify(set.body).includes(png), false, "the API answers a URL, not the bytes");
  const logo = await app.request("/b/acme-status/logo");
  equal(logo.status, 200);
  equal(logo.headers.get("content-type"), "image/png");
  deepStrictEqual(
    new Uint8Array(await logo.arrayBuffer()),
    Uint8Array.from(atob(png), (c) => c.charCodeAt(0)),
  );
  const page = await (await app.request("/b/acme-status?with-logo")).text();
  match(page, /<img class="logo" src="\/b\/acme-status\/logo\?v=[^"]+" alt="Acme status logo"/);
  for (
    const [logoUrl, problem] of [
      [`data:image/jpeg;base64,${png}`, /not a JPEG image/],
      [`data:image/svg+xml;base64,${btoa("<svg/>")}`, /PNG, JPEG or WebP/],
      [
        `data:image/png;base64,${btoa("\x89PNG\r\n\x1a\n" + "x".repeat(110_000))}`,
        /at most 100 KB/,
      ],
      ["https://example.com/logo.png", /data: URL/],
    ] as const
  ) {
    const bad = await send("PATCH", `/api/user/boards/${made.id}`, { logo: logoUrl });
    equal(bad.res.status, 400, String(problem));
    equal(bad.body.issues[0].parameter, "logo");
    match(bad.body.issues[0].message, problem);
  }
  equal(
    (await app.request("/b/acme-status/logo?again")).status,
    200,
    "a refused one changes nothing",
  );
  await send("PATCH", `/api/user/boards/${made.id}`, { logo: null });
  equal((await app.request("/b/acme-status/logo?gone")).status, 404);
});
