import { equal, notEqual } from "node:assert/strict";
import { HOUR_MS, MINUTE_MS } from "../../../domain/mod.ts";
import { apiRig, PUBLIC_URL } from "../../support/api.ts";

const post = (r: ReturnType<typeof apiRig>, path: string, body: string, type: string) =>
  r.app.request(`${PUBLIC_URL}${path}`, {
    method: "POST",
    headers: { "content-type": type, origin: PUBLIC_URL },
    body,
  });

const registration = JSON.stringify({
  client_name: "rate test",
  redirect_uris: ["http://127.0.0.1:9999/callback"],
  token_endpoint_auth_method: "none",
});

Deno.test("the 21st client registration in an hour from one address gets 429 with Retry-After", async () => {
  const r = apiRig();
  try {
    for (let i = 0; i < 20; i++) {
      equal((await post(r, "/oauth/register", registration, "application/json")).status, 201);
    }
    const refused = await post(r, "/oauth/register", registration, "application/json");
    equal(refused.status, 429);
    equal(refused.headers.get("retry-after"), "3600");
    const body = await refused.json();
    equal(body.error, "rate_limited");
    equal(body.status, 429);
    r.clock.advance(HOUR_MS);
    equal((await post(r, "/oauth/register", registration, "application/json")).status, 201);
  } finally {
    await r.close();
  }
});

Deno.test("a registration 429 carries the CORS headers of every other /oauth/register answer", async () => {
  const r = apiRig();
  try {
    const origin = "https://inspector.example";
    const send = () =>
      r.app.request(`${PUBLIC_URL}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: registration,
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
      equal((await post(r, "/oauth/register", bad, "application/json")).status, 400);
      equal((await post(r, "/oauth/register", "{not json", "application/json")).status, 400);
    }
    for (let i = 0; i < 20; i++) {
      equal((await post(r, "/oauth/register", registration, "application/json")).status, 201);
    }
    equal((await post(r, "/oauth/register", registration, "application/json")).status, 429);
  } finally {
    await r.close();
  }
});

Deno.test("password guessing is slowed: the 11th sign-in attempt in 5 minutes gets 429", async () => {
  const r = apiRig();
  try {
    const form = "email=nobody%40example.com&password=wrong";
    for (let i = 0; i < 10; i++) {
      notEqual((await post(r, "/sign-in", form, "application/x-www-form-urlencoded")).status, 429);
    }
    equal((await post(r, "/sign-in", form, "application/x-www-form-urlencoded")).status, 429);
    equal((await post(r, "/sign-up", form, "application/x-www-form-urlencoded")).status, 429);
    r.clock.advance(5 * MINUTE_MS);
    notEqual((await post(r, "/sign-in", form, "application/x-www-form-urlencoded")).status, 429);
  } finally {
    await r.close();
  }
});
