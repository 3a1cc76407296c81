/**
 * Sign-in and sign-up hold against hostile callers: no account enumeration, no open redirect
 * after sign-in, malformed forms are a 400, failed sign-ins are limited per account, and
 * password hashing is bounded.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { HASHING, passwordHashing, SIGN_IN_ACCOUNT_LIMIT, signIn } from "../../../app/mod.ts";
import { fixedClock } from "../../../domain/mod.ts";
import { HOME_AFTER_SIGN_IN } from "../../../routes/web/auth.tsx";
import { safeNext } from "../../../routes/web/session.ts";
import { createServer } from "../../../routes/mod.ts";
import { account, PASSWORD, T0, testContext } from "../../support/accounts.ts";
import { csrfOf, formBrowser, fromAddress } from "../../support/web.ts";

Deno.test("safeNext keeps same-site paths and refuses anything a browser could read as another site", () => {
  const fallback = "/home";
  const cases: [string | undefined, string][] = [
    ["/settings/mcp", "/settings/mcp"],
    ["/oauth/authorize?client_id=a&state=b%20c", "/oauth/authorize?client_id=a&state=b%20c"],
    ["/services/caf\u00e9", "/services/caf%C3%A9"],
    ["/\t/evil.example", fallback],
    ["/\n/evil.example", fallback],
    ["/x\r\nSet-Cookie: a=b", fallback],
    ["//evil.example", fallback],
    ["/\\evil.example", fallback],
    ["/ /evil.example", fallback],
    ["https://evil.example/", fallback],
    ["javascript:alert(1)", fallback],
    ["evil.example", fallback],
    ["", fallback],
    [undefined, fallback],
  ];
  for (const [value, expected] of cases) equal(safeNext(value, fallback), expected, String(value));
});

Deno.test("after sign-in a next of /%09/evil.example or one with CR/LF lands on Settings, never elsewhere", async () => {
  await using ctx = testContext();
  await account(ctx, "owner@example.com");
  const app = createServer({ app: ctx });
  const shown = await (await formBrowser(app).get("/sign-in?next=%2F%09%2Fevil.example")).text();
  match(shown, new RegExp(`name="next" value="${HOME_AFTER_SIGN_IN}"`));
  for (
    const next of ["/\t/evil.example", "/a\r\nLocation: https://evil.example/", "//evil.example"]
  ) {
    const b = formBrowser(app);
    const res = await b.submit("/sign-in", "/sign-in", {
      email: "owner@example.com",
      password: PASSWORD,
      next,
    });
    equal(res.status, 303, JSON.stringify(next));
    equal(res.headers.get("location"), HOME_AFTER_SIGN_IN);
  }
  const b = formBrowser(app);
  const back = await b.submit("/sign-in", "/sign-in", {
    email: "owner@example.com",
    password: PASSWORD,
    next: "/oauth/authorize?client_id=abc&state=xyz",
  });
  equal(back.headers.get("location"), "/oauth/authorize?client_id=abc&state=xyz");
});

Deno.test("sign-up signs the new account in and goes on to a safe next", async () => {
  await using ctx = testContext();
  const b = formBrowser(createServer({ app: ctx }));
  const next = "/oauth/authorize?client_id=abc";
  const page = await (await b.get(`/sign-up?next=${encodeURIComponent(next)}`)).text();
  const res = await b.get("/sign-up", {
    method: "POST",
    body: new URLSearchParams({
      _csrf: csrfOf(page),
      email: "n@example.com",
      password: PASSWORD,
      next,
    }),
  });
  equal(res.headers.get("location"), next);
  ok(res.headers.getSetCookie().some((c) => c.startsWith("sd_session=")), "signed in");
  const other = formBrowser(createServer({ app: ctx }));
  const form = await (await other.get("/sign-up")).text();
  const evil = await other.get("/sign-up", {
    method: "POST",
    body: new URLSearchParams({
      _csrf: csrfOf(form),
      email: "m@example.com",
      password: PASSWORD,
      next: "/\t/evil.example",
    }),
  });
  // A new account lands where it picks the vendors it depends on.
  equal(evil.headers.get("location"), "/settings/monitors?welcome=1");
});

Deno.test("sign-up with a taken email changes nothing and sends its person to sign in; a new one is signed in", async () => {
  await using ctx = testContext();
  await account(ctx, "owner@example.com");
  const app = createServer({ app: ctx });
  const answer = async (email: string) => {
    const b = formBrowser(app);
    const res = await b.submit("/sign-up", "/sign-up", { email, password: "another password" });
    return {
      status: res.status,
      location: res.headers.get("location"),
      session: res.headers.getSetCookie().some((c) => c.startsWith("sd_session=")),
    };
  };
  deepStrictEqual(await answer("owner@example.com"), {
    status: 303,
    location: "/sign-in?created=1",
    session: false,
  });
  deepStrictEqual(await answer("fresh@example.com"), {
    status: 303,
    location: "/settings/monitors?welcome=1",
    session: true,
  });
  // The owner's password is unchanged; the new email got its account, on the sign-up plan.
  equal((await signIn(ctx, "owner@example.com", PASSWORD)).member.email, "owner@example.com");
  equal((await signIn(ctx, "fresh@example.com", "another password")).account.plan, "FREE");
  // Bad input is still explained (it says nothing about accounts).
  const b = formBrowser(app);
  const short = await b.submit("/sign-up", "/sign-up", {
    email: "owner@example.com",
    password: "x",
  });
  equal(short.status, 400);
  const text = await short.text();
  match(text, /at least 10 characters/);
  ok(!/exist/i.test(text));
});

Deno.test("a multipart form without a boundary is a 400 page on every form, not a 500", async () => {
  await using ctx = testContext();
  await account(ctx, "owner@example.com");
  const app = createServer({ app: ctx });
  const signedIn = formBrowser(app);
  await signedIn.submit("/sign-in", "/sign-in", { email: "owner@example.com", password: PASSWORD });
  const anonymous = formBrowser(app);
  const cases: [string, ReturnType<typeof formBrowser>][] = [
    ["/sign-in", anonymous],
    ["/sign-up", anonymous],
    ["/settings/api-keys", signedIn],
    ["/settings/mcp/keys", signedIn],
    ["/oauth/authorize", signedIn],
    ["/sign-out", signedIn],
  ];
  for (const [path, b] of cases) {
    const res = await b.get(path, {
      method: "POST",
      headers: { "content-type": "multipart/form-data" },
      body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n',
    });
    equal(res.status, 400, path);
    match(res.headers.get("content-type")!, /^text\/html/);
    match(await res.text(), /could not read the form/);
  }
});

Deno.test("after 10 failed sign-ins an email is refused for 15 minutes, even with the right password, whether or not it has an account", async () => {
  const clock = fixedClock(T0);
  await using ctx = testContext({ clock });
  await account(ctx, "owner@example.com");
  const app = createServer({ app: ctx });
  // Each attempt from its own address: the per-address limit never applies here.
  let n = 0;
  const attempt = (email: string, password: string) =>
    formBrowser(app, `10.1.${Math.floor(n / 250)}.${n++ % 250}`).submit("/sign-in", "/sign-in", {
      email,
      password,
    });
  for (const email of ["owner@example.com", "ghost@example.com"]) {
    for (let i = 0; i < SIGN_IN_ACCOUNT_LIMIT.limit; i++) {
      equal((await attempt(email, "wrong password")).status, 401);
    }
  }
  const locked = await attempt("owner@example.com", PASSWORD);
  const ghost = await attempt("ghost@example.com", "wrong password");
  for (const res of [locked, ghost]) {
    equal(res.status, 429);
    equal(res.headers.get("retry-after"), String(SIGN_IN_ACCOUNT_LIMIT.windowMs / 1000));
    ok(!res.headers.getSetCookie().some((c) => c.startsWith("sd_session=")));
  }
  const text = (res: Response) => res.text().then((t) => t.replace(/value="[^"]*"/g, ""));
  const [lockedText, ghostText] = [await text(locked), await text(ghost)];
  match(lockedText, /Too many failed sign-ins for this email\. Try again in 15 min\./);
  equal(lockedText, ghostText); // the same answer, so nothing says which email has an account
  equal((await attempt("other@example.com", "wrong password")).status, 401);

  clock.advance(SIGN_IN_ACCOUNT_LIMIT.windowMs);
  equal((await attempt("owner@example.com", PASSWORD)).status, 303);
});

Deno.test("40 concurrent wrong sign-ins from 4 addresses: a few hash at once, the rest get 503 with Retry-After", async () => {
  await using ctx = testContext();
  await account(ctx, "owner@example.com");
  const app = createServer({ app: ctx });
  const b = formBrowser(app);
  const csrf = csrfOf(await (await b.get("/sign-in")).text());
  const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const results = await Promise.all(Array.from({ length: 40 }, (_, i) =>
    app.request("/sign-in", {
      method: "POST",
      headers: { cookie, accept: "text/html", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        _csrf: csrf,
        email: `u${i}@example.com`,
        password: "wrong one!",
      }),
    }, fromAddress(`10.2.0.${i % 4}`))));
  const statuses = results.map((r) => r.status);
  const checked = statuses.filter((s) => s === 401).length;
  const busy = results.filter((r) => r.status === 503);
  equal(checked + busy.length, 40, statuses.join(","));
  ok(checked <= HASHING.concurrent + HASHING.waiting, `${checked} checked at once`);
  for (const res of busy) {
    equal(res.headers.get("retry-after"), String(HASHING.retryAfterSeconds));
    match(await res.text(), /busy checking other passwords/);
  }
  for (const res of results) if (!res.bodyUsed) await res.body?.cancel();
  equal(passwordHashing.load.running, 0);
  // Once the burst is over, signing in works again.
  equal(
    (await formBrowser(app, "10.2.1.1").submit("/sign-in", "/sign-in", {
      email: "owner@example.com",
      password: PASSWORD,
    })).status,
    303,
  );
});
