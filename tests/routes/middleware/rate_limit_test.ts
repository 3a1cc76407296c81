/**
 * Per-address limits on registration, sign-in and sign-up: failures counted, bounded memory
 * that a flood cannot reset, client addresses read only from trusted proxies, and a 429 in
 * the caller's own format.
 */
import { equal, match, notEqual } from "node:assert/strict";
import { HOUR_MS, MINUTE_MS } from "../../../domain/mod.ts";
import { LIMITS } from "../../../routes/middleware/rate_limit.ts";
import { createServer } from "../../../routes/mod.ts";
import { account, PASSWORD, testContext } from "../../support/accounts.ts";
import { apiRig, PUBLIC_URL } from "../../support/api.ts";
import { formBrowser, fromAddress } from "../../support/web.ts";

type App = ReturnType<typeof createServer>;

/** A POST from `address` (a form without CSRF token: refused with 403, a cheap failure). */
const post = (
  app: App,
  path: string,
  opts: { address?: string; body?: string; type?: string; headers?: Record<string, string> } = {},
) =>
  app.request(`${PUBLIC_URL}${path}`, {
    method: "POST",
    headers: {
      "content-type": opts.type ?? "application/x-www-form-urlencoded",
      ...opts.headers,
    },
    body: opts.body ?? "email=nobody%40example.com&password=wrong",
  }, opts.address ? fromAddress(opts.address) : undefined);

const registration = JSON.stringify({
  client_name: "rate test",
  redirect_uris: ["http://127.0.0.1:9999/callback"],
  token_endpoint_auth_method: "none",
});

Deno.test("the 21st client registration in an hour from one address gets 429 with Retry-After", async () => {
  const r = apiRig();
  try {
    const register = () =>
      post(r.app, "/oauth/register", { body: registration, type: "application/json" });
    for (let i = 0; i < 20; i++) equal((await register()).status, 201);
    const refused = await register();
    equal(refused.status, 429);
    equal(refused.headers.get("retry-after"), "3600");
    const body = await refused.json();
    equal(body.error, "rate_limited");
    equal(body.status, 429);
    r.clock.advance(HOUR_MS);
    equal((await register()).status, 201);
  } finally {
    await r.close();
  }
});

Deno.test("a registration 429 carries the CORS headers of every other /oauth/register answer", async () => {
  const r = apiRig();
  try {
    const origin = "https://inspector.example";
    const send = () =>
      post(r.app, "/oauth/register", {
        body: registration,
        type: "application/json",
        headers: { origin },
      });
    for (let i = 0; i < 20; i++) {
      const ok = await send();
      equal(ok.status, 201);
      equal(ok.headers.get("access-control-allow-origin"), "*");
    }
    const refused = await send();
    equal(refused.status, 429);
    equal(refused.headers.get("access-control-allow-origin"), "*");
    equal(refused.headers.get("retry-after"), "3600");
    equal((await refused.json()).error, "rate_limited");
  } finally {
    await r.close();
  }
});

Deno.test("failed registrations (400) do not count against the registration limit", async () => {
  const r = apiRig();
  try {
    const bad = JSON.stringify({ client_name: "no redirect" });
    for (let i = 0; i < 25; i++) {
      equal(
        (await post(r.app, "/oauth/register", { body: bad, type: "application/json" })).status,
        400,
      );
      equal(
        (await post(r.app, "/oauth/register", { body: "{not json", type: "application/json" }))
          .status,
        400,
      );
    }
    for (let i = 0; i < 20; i++) {
      equal(
        (await post(r.app, "/oauth/register", { body: registration, type: "application/json" }))
          .status,
        201,
      );
    }
    equal(
      (await post(r.app, "/oauth/register", { body: registration, type: "application/json" }))
        .status,
      429,
    );
  } finally {
    await r.close();
  }
});

Deno.test("password guessing is slowed: the 11th failed sign-in in 5 minutes from one address gets 429", async () => {
  const r = apiRig();
  try {
    for (let i = 0; i < LIMITS.signIn.limit; i++) {
      notEqual((await post(r.app, "/sign-in", { address: "10.3.0.1" })).status, 429);
    }
    equal((await post(r.app, "/sign-in", { address: "10.3.0.1" })).status, 429);
    notEqual((await post(r.app, "/sign-in", { address: "10.3.0.2" })).status, 429);
    r.clock.advance(5 * MINUTE_MS);
    notEqual((await post(r.app, "/sign-in", { address: "10.3.0.1" })).status, 429);
  } finally {
    await r.close();
  }
});

Deno.test("successful sign-ins do not count against the address", async () => {
  await using ctx = testContext();
  await account(ctx, "owner@example.com");
  const app = createServer({ app: ctx });
  for (let i = 0; i <= LIMITS.signIn.limit; i++) {
    const res = await formBrowser(app, "10.3.1.1").submit("/sign-in", "/sign-in", {
      email: "owner@example.com",
      password: PASSWORD,
    });
    equal(res.status, 303, `sign-in ${i + 1}`);
  }
});

Deno.test("sign-up has its own limit and counts every attempt", async () => {
  const r = apiRig();
  try {
    for (let i = 0; i < LIMITS.signIn.limit; i++) {
      notEqual((await post(r.app, "/sign-in", { address: "10.3.2.1" })).status, 429);
    }
    for (let i = 0; i < LIMITS.signUp.limit; i++) {
      notEqual((await post(r.app, "/sign-up", { address: "10.3.2.1" })).status, 429);
    }
    equal((await post(r.app, "/sign-up", { address: "10.3.2.1" })).status, 429);
  } finally {
    await r.close();
  }
});

Deno.test("10,001 requests from other addresses do not reset an address that is being refused", async () => {
  const r = apiRig();
  try {
    const attacker = "10.4.0.1";
    for (let i = 0; i < LIMITS.signIn.limit; i++) {
      await post(r.app, "/sign-in", { address: attacker });
    }
    equal((await post(r.app, "/sign-in", { address: attacker })).status, 429);
    for (let i = 0; i < LIMITS.signIn.maxKeys + 1; i++) {
      const res = await post(r.app, "/sign-in", { address: `10.5.${i >> 8}.${i & 255}` });
      await res.body?.cancel();
    }
    equal((await post(r.app, "/sign-in", { address: attacker })).status, 429);
  } finally {
    await r.close();
  }
});

Deno.test("X-Forwarded-For counts only from a trusted proxy: the client it names is limited", async () => {
  await using ctx = testContext();
  const app = createServer({ app: ctx, trustedProxies: ["10.9.0.0/16", "2001:db8:ffff::/48"] });
  // An untrusted peer cannot pick a new address per request.
  for (let i = 0; i < LIMITS.signIn.limit; i++) {
    await post(app, "/sign-in", {
      address: "192.0.2.1",
      headers: { "x-forwarded-for": `198.18.0.${i}` },
    });
  }
  const spoofed = await post(app, "/sign-in", {
    address: "192.0.2.1",
    headers: { "x-forwarded-for": "198.18.1.1" },
  });
  equal(spoofed.status, 429);

  // Behind the proxy, each forwarded client has its own count; a hop the client wrote itself
  // (left of what the proxy appended) changes nothing.
  const viaProxy = (xff: string) =>
    post(app, "/sign-in", { address: "10.9.0.5", headers: { "x-forwarded-for": xff } });
  for (let i = 0; i < LIMITS.signIn.limit; i++) await viaProxy(`203.0.113.${i}, 198.51.100.7`);
  equal((await viaProxy("198.51.100.7")).status, 429);
  equal((await viaProxy("1.1.1.1, 198.51.100.7, 10.9.3.3")).status, 429);
  notEqual((await viaProxy("198.51.100.8")).status, 429);
  // The proxy seen over IPv6 as a v4-mapped address is still the trusted proxy.
  const mapped = await post(app, "/sign-in", {
    address: "::ffff:10.9.0.7",
    headers: { "x-forwarded-for": "198.51.100.7" },
  });
  equal(mapped.status, 429);
  const forwarded = await post(app, "/sign-in", {
    address: "2001:db8:ffff::10",
    headers: { forwarded: 'for="[2001:db8::1]:4711";proto=https' },
  });
  notEqual(forwarded.status, 429);
});

Deno.test("a browser gets an HTML 429 page, an API client JSON", async () => {
  const r = apiRig();
  try {
    for (let i = 0; i < LIMITS.signIn.limit; i++) {
      await post(r.app, "/sign-in", { address: "10.6.0.1" });
    }
    const page = await post(r.app, "/sign-in", {
      address: "10.6.0.1",
      headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" },
    });
    equal(page.status, 429);
    match(page.headers.get("content-type")!, /^text\/html/);
    match(page.headers.get("retry-after")!, /^\d+$/);
    match(await page.text(), /<h1>Too many attempts<\/h1>/);

    const api = await post(r.app, "/sign-in", {
      address: "10.6.0.1",
      headers: { accept: "application/json" },
    });
    equal(api.status, 429);
    equal((await api.json()).error, "rate_limited");

    for (let i = 0; i < LIMITS.register.limit; i++) {
      await post(r.app, "/oauth/register", { body: registration, type: "application/json" });
    }
    const registerFromBrowser = await post(r.app, "/oauth/register", {
      body: registration,
      type: "application/json",
      headers: { accept: "text/html" },
    });
    equal(registerFromBrowser.status, 429);
    equal((await registerFromBrowser.json()).error, "rate_limited");
  } finally {
    await r.close();
  }
});
