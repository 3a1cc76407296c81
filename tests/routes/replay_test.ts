/**
 * Whole answers replayed before routing (routes/api/cache.ts `replay`/`remember`): an anonymous
 * read of a cached public answer gets the same status, headers and bytes as the full path gave,
 * until the next change; a credential is still checked, a session still gets its own page, a
 * conditional request still gets its 304, and a board's own host is never answered with
 * statusd's own pages (or the other way round).
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { account, key, PASSWORD } from "../support/accounts.ts";
import { apiRig, T0 } from "../support/api.ts";
import { recordReading, setStatus, syncVendors, vendorOf } from "../support/seed.ts";
import { formBrowser } from "../support/web.ts";

const HTML = { accept: "text/html" };

async function whole(res: Response) {
  return { status: res.status, headers: [...res.headers], body: await res.text() };
}

Deno.test("an anonymous read is answered whole from the replay until the next change", async () => {
  const r = apiRig();
  try {
    await syncVendors(r.store, [vendorOf({ slug: "acme" })], T0);
    await setStatus(r.store, "acme", "OPERATIONAL", T0);
    for (
      const [path, headers] of [
        ["/api/services/acme", {}],
        ["/badge/acme.svg", {}],
        ["/services/acme", HTML],
        ["/api/services?limit=5", {}],
      ] as const
    ) {
      const first = await whole(await r.get(path, headers));
      equal(first.status, 200, path);
      ok(first.headers.some(([n]) => n === "x-content-type-options"), `${path}: security headers`);
      for (let i = 0; i < 3; i++) {
        deepStrictEqual(await whole(await r.get(path, headers)), first, `${path}: the same answer`);
      }
    }
    const badge = await r.get("/badge/acme.svg");
    await badge.body?.cancel();
    const etag = badge.headers.get("etag")!;
    equal((await r.get("/badge/acme.svg", { "if-none-match": etag })).status, 304);

    await recordReading(r.store, "acme", {
      indicator: "MAJOR_OUTAGE",
      components: [],
      incidents: [],
    }, T0 + 60_000);
    equal((await (await r.get("/api/services/acme")).json()).currentStatus, "MAJOR_OUTAGE");
    match(await (await r.get("/services/acme", HTML)).text(), /s-MAJOR_OUTAGE/);
    const fresh = await r.get("/badge/acme.svg", { "if-none-match": etag });
    equal(fresh.status, 200, "the old ETag no longer matches");
    await fresh.body?.cancel();
  } finally {
    await r.close();
  }
});

Deno.test("a replayed URL still checks every credential sent with it", async () => {
  const r = apiRig();
  try {
    await syncVendors(r.store, [vendorOf({ slug: "acme" })], T0);
    await setStatus(r.store, "acme", "OPERATIONAL", T0);
    const who = await account(r.ctx, "owner@example.com");
    const good = await key(r.ctx, who, "reader", ["status:read"]);
    for (let i = 0; i < 3; i++) equal((await r.get("/api/services/acme")).status, 200);
    const refused = await r.get("/api/services/acme", { "X-API-Key": "sd_live_not_a_real_key" });
    equal(refused.status, 401);
    equal((await refused.json()).error, "unauthorized");
    equal(
      (await r.get("/api/services/acme", { authorization: "Bearer sd_live_nope" })).status,
      401,
    );
    const mine = await r.get("/api/services/acme", { "X-API-Key": good });
    equal(mine.status, 200);
    equal((await mine.json()).slug, "acme");
  } finally {
    await r.close();
  }
});

Deno.test("a session gets its own page even when the shared one is replayed, and no one else gets it", async () => {
  const r = apiRig();
  try {
    await syncVendors(r.store, [vendorOf({ slug: "acme" })], T0);
    await setStatus(r.store, "acme", "OPERATIONAL", T0);
    await account(r.ctx, "owner@example.com");
    const person = formBrowser(r.app);
    await person.submit("/sign-in", "/sign-in", { email: "owner@example.com", password: PASSWORD });
    ok(person.jar.has("sd_session"));
    // Both browsers ask for the same URL with the same Accept: only the cookie tells them apart.
    const anonymous = formBrowser(r.app);
    for (let i = 0; i < 3; i++) {
      const shared = await anonymous.get("/services/acme", { headers: HTML });
      ok(!(await shared.text()).includes("owner@example.com"));
    }
    const mine = await person.get("/services/acme", { headers: HTML });
    equal(mine.headers.get("cache-control"), "private, no-store");
    ok((await mine.text()).includes("owner@example.com"));
    const shared = await anonymous.get("/services/acme", { headers: HTML });
    equal(shared.headers.get("cache-control"), "no-cache");
    ok(!(await shared.text()).includes("owner@example.com"));
  } finally {
    await r.close();
  }
});

Deno.test("a board's own host and statusd's own host never share a replay", async () => {
  const r = apiRig();
  try {
    await syncVendors(r.store, [vendorOf({ slug: "acme" })], T0);
    await setStatus(r.store, "acme", "OPERATIONAL", T0);
    const who = await account(r.ctx, "owner@example.com");
    const secret = await key(r.ctx, who, "rw", ["monitors:read", "monitors:write"]);
    const send = (method: string, path: string, body: unknown) =>
      r.app.request(`https://status.example.test${path}`, {
        method,
        headers: { "X-API-Key": secret, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const monitor = await (await send("POST", "/api/user/monitors", { service: "acme" })).json();
    const board = await (await send("POST", "/api/user/boards", {
      slug: "acme-status",
      title: "Acme status",
      public: true,
      items: [{ kind: "monitor", id: monitor.id }],
      host: "status.acme.test",
    })).json();
    const ownHome = () => r.app.request("https://status.example.test/", { headers: HTML });
    const boardHome = () => r.app.request("http://status.acme.test/", { headers: HTML });
    for (let i = 0; i < 3; i++) {
      match(await (await ownHome()).text(), /<title>[^<]*statusd/i);
      match(await (await boardHome()).text(), /<h1>Acme status<\/h1>/);
    }
    // The board made private: its host answers 404 at once, though its page was replayed.
    const patched = await send("PATCH", `/api/user/boards/${board.id}`, { public: false });
    equal(patched.status, 200);
    equal((await boardHome()).status, 404);
  } finally {
    await r.close();
  }
});
