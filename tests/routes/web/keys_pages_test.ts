import { equal, match, ok } from "node:assert/strict";
import { addMember, signIn } from "../../../app/mod.ts";
import { createServer } from "../../../routes/mod.ts";
import { account, PASSWORD, testContext } from "../../support/accounts.ts";
import { formBrowser as browser } from "../../support/web.ts";

Deno.test("sign-up creates a Free account and signs in; sign-in sets an HttpOnly SameSite=Lax session cookie", async () => {
  await using ctx = testContext();
  await account(ctx, "operator@example.com"); // the first account is the operator's
  const b = browser(createServer({ app: ctx }));
  const res = await b.submit("/sign-up", "/sign-up", {
    email: "new@example.com",
    password: PASSWORD,
  });
  equal(res.status, 303);
  equal(
    res.headers.get("location"),
    "/settings/monitors?welcome=1",
    "a new account picks its vendors",
  );
  equal(b.jar.has("sd_session"), true, "signing up signs in");
  await b.submit("/settings/api-keys", "/sign-out", {});
  equal(b.jar.has("sd_session"), false);
  match(await (await b.get("/sign-in?created=1")).text(), /its account is ready: sign in/);
  const signedIn = await b.submit("/sign-in", "/sign-in", {
    email: "new@example.com",
    password: PASSWORD,
  });
  equal(signedIn.status, 303);
  equal(signedIn.headers.get("location"), "/settings/api-keys");
  const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith("sd_session="))!;
  match(cookie, /HttpOnly/);
  match(cookie, /SameSite=Lax/);
  ok(!/Secure/.test(cookie)); // http public URL
  const page = await (await b.get("/settings/api-keys")).text();
  match(page, /new@example\.com/);
  // A Free account is told why it cannot create keys and gets no form.
  match(page, /Creating API keys requires the PRO plan or above/);
  match(page, /grants plans with: deno task admin set-plan --email new@example\.com --plan PRO/);
  ok(!page.includes('action="/settings/api-keys"'));
});

Deno.test("behind https the session cookie is Secure", async () => {
  await using ctx = testContext({ publicUrl: "https://status.example.com" });
  await account(ctx, "owner@example.com");
  const b = browser(createServer({ app: ctx }));
  const res = await b.submit("/sign-in", "/sign-in", {
    email: "owner@example.com",
    password: PASSWORD,
  });
  match(res.headers.getSetCookie().find((c) => c.startsWith("sd_session="))!, /Secure/);
});

Deno.test("forms without the CSRF token, or from another site, are refused", async () => {
  await using ctx = testContext();
  await account(ctx, "owner@example.com");
  const app = createServer({ app: ctx });
  const b = browser(app);
  const noToken = await b.get("/sign-in", {
    method: "POST",
    body: new URLSearchParams({ email: "owner@example.com", password: PASSWORD }),
  });
  equal(noToken.status, 403);
  equal(b.jar.has("sd_session"), false);
  await b.submit("/sign-in", "/sign-in", { email: "owner@example.com", password: PASSWORD });
  ok(b.jar.has("sd_session"));
  const forged = await b.get("/settings/api-keys", {
    method: "POST",
    body: new URLSearchParams({ _csrf: "x".repeat(43), name: "evil" }),
  });
  equal(forged.status, 403);
  const page = await (await b.get("/settings/api-keys")).text();
  const token = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
  const crossSite = await b.get("/settings/api-keys", {
    method: "POST",
    headers: { origin: "https://evil.example" },
    body: new URLSearchParams({ _csrf: token, name: "evil" }),
  });
  equal(crossSite.status, 403);
  match(await (await b.get("/settings/api-keys")).text(), /No active keys/);
});

Deno.test("a wrong password re-shows the form with a message and no session", async () => {
  await using ctx = testContext();
  await account(ctx, "owner@example.com");
  const b = browser(createServer({ app: ctx }));
  const res = await b.submit("/sign-in", "/sign-in", {
    email: "owner@example.com",
    password: "nope nope nope",
  });
  equal(res.status, 401);
  match(await res.text(), /Wrong email or password/);
  equal(b.jar.has("sd_session"), false);
  const settings = await b.get("/settings/api-keys");
  equal(settings.status, 303);
  equal(settings.headers.get("location"), "/sign-in?next=%2Fsettings%2Fapi-keys");
});

Deno.test("an owner creates a key, sees it once, then revokes it after confirming", async () => {
  await using ctx = testContext();
  await account(ctx, "owner@example.com");
  const b = browser(createServer({ app: ctx }));
  await b.submit("/sign-in", "/sign-in", { email: "owner@example.com", password: PASSWORD });
  const created = await b.submit("/settings/api-keys", "/settings/api-keys", {
    name: "deploy bot",
    scopes: ["sla:read", "status:read"],
  });
  equal(created.status, 201);
  equal(created.headers.get("cache-control"), "no-store");
  const html = await created.text();
  const secret = /<code id="new-key">(sd_live_[^<]+)<\/code>/.exec(html)![1]!;
  match(html, /only time it is shown/);
  match(html, /data-copy="new-key"/);
  const again = await (await b.get("/settings/api-keys")).text();
  ok(!again.includes(secret.slice(12)), "the secret is shown only once");
  match(again, /deploy bot/);
  match(again, /<code>sla:read<\/code>, <code>status:read<\/code>/);
  const id = /\/settings\/api-keys\/([^/]+)\/revoke/.exec(again)![1]!;
  const confirm = await (await b.get(`/settings/api-keys/${id}/revoke`)).text();
  match(confirm, /cannot be undone/);
  // Without the confirmation field nothing happens.
  const unconfirmed = await b.submit(
    `/settings/api-keys/${id}/revoke`,
    `/settings/api-keys/${id}/revoke`,
    {},
  );
  equal(unconfirmed.headers.get("location"), `/settings/api-keys/${id}/revoke`);
  match(await (await b.get("/settings/api-keys")).text(), /deploy bot/);
  const done = await b.submit(
    `/settings/api-keys/${id}/revoke`,
    `/settings/api-keys/${id}/revoke`,
    {
      confirm: "yes",
    },
  );
  equal(done.status, 303);
  const after = await (await b.get(done.headers.get("location")!)).text();
  match(after, /Key revoked/);
  ok(!after.includes("deploy bot"));
  ok(!ctx.lines.some((l) => l.includes(secret.slice(12))));
});

Deno.test("members of a Pro account see why they cannot create keys", async () => {
  await using ctx = testContext();
  await account(ctx, "owner@example.com");
  await addMember(ctx, {
    ownerEmail: "owner@example.com",
    email: "dev@example.com",
    password: PASSWORD,
    role: "MEMBER",
  });
  const b = browser(createServer({ app: ctx }));
  await b.submit("/sign-in", "/sign-in", { email: "dev@example.com", password: PASSWORD });
  const page = await (await b.get("/settings/api-keys")).text();
  match(page, /Only account owners can create API keys; you are signed in as MEMBER/);
  const res = await b.submit("/settings/api-keys", "/settings/api-keys", { name: "x" });
  equal(res.status, 403);
});

Deno.test("sign-out ends the session", async () => {
  await using ctx = testContext();
  await account(ctx, "owner@example.com");
  const b = browser(createServer({ app: ctx }));
  await b.submit("/sign-in", "/sign-in", { email: "owner@example.com", password: PASSWORD });
  const cookie = b.jar.get("sd_session")!;
  const out = await b.submit("/settings/api-keys", "/sign-out", {});
  equal(out.headers.get("location"), "/sign-in");
  b.jar.set("sd_session", cookie); // even a copied cookie no longer works
  equal((await b.get("/settings/api-keys")).status, 303);
});

Deno.test("the first account of an empty database is the operator's, on the top plan; later ones get the sign-up plan; the sign-up page says which", async () => {
  await using ctx = testContext();
  const app = createServer({ app: ctx });
  const signUpAs = async (email: string) => {
    const b = browser(app);
    equal((await b.submit("/sign-up", "/sign-up", { email, password: PASSWORD })).status, 303);
    return b;
  };
  const page = async (a: typeof app) => await (await a.request("/sign-up")).text();
  match(
    await page(app),
    /This is the first account of this statusd: it becomes its operator(?:'|&#39;)s, on the Enterprise plan/,
  );
  const operator = await signUpAs("operator@example.com");
  equal((await signIn(ctx, "operator@example.com", PASSWORD)).account.plan, "ENTERPRISE");
  match(
    await page(app),
    /New accounts start on the Free plan\. API keys and MCP need Pro or above\./,
  );
  match(await (await operator.get("/settings/api-keys")).text(), /action="\/settings\/api-keys"/);
  await signUpAs("second@example.com");
  equal((await signIn(ctx, "second@example.com", PASSWORD)).account.plan, "FREE");
  // A self-hoster may make sign-ups start on another plan.
  await using team = testContext({ signupPlan: "TEAM" });
  await account(team, "operator@example.com");
  const teamApp = createServer({ app: team });
  const said = await page(teamApp);
  match(said, /New accounts start on the Team plan\./);
  equal(said.includes("need Pro"), false, "a Team plan has keys and MCP");
  const b = browser(teamApp);
  await b.submit("/sign-up", "/sign-up", { email: "third@example.com", password: PASSWORD });
  equal((await signIn(team, "third@example.com", PASSWORD)).account.plan, "TEAM");
});
