import { deepStrictEqual, equal, match, ok, rejects } from "node:assert/strict";
import { authenticate, createKey, listKeys, revokeKey, revokeKeyByName } from "../../app/mod.ts";
import {
  ALL_SCOPES,
  fixedClock,
  Forbidden,
  InvalidRequest,
  MINUTE_MS,
  PlanRequired,
  Unauthorized,
} from "../../domain/mod.ts";
import { account, key, setPlanInStore, storeRawKey, T0, testContext } from "../support/accounts.ts";

const tick = () => new Promise((r) => setTimeout(r, 10));

Deno.test("a created key is sd_live_ + 256 random bits and only its hash is stored", async () => {
  await using ctx = testContext();
  const who = await account(ctx, "owner@example.com");
  const secret = await await key(ctx, who, "ci", ["sla:read"]);
  match(secret, /^sd_live_[A-Za-z0-9_-]{43}$/);
  const stored = (await ctx.store.keys.byHash(await sha256Hex(secret)))!;
  ok(!JSON.stringify(stored).includes(secret.slice(8)), "nothing stored holds the secret");
  equal(stored.key.prefix, secret.slice(0, 12));
  equal(stored.keyHash, await sha256Hex(secret));
});

async function sha256Hex(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("a key authenticates as its account with exactly its scopes", async () => {
  await using ctx = testContext();
  const who = await account(ctx, "owner@example.com");
  const p = await authenticate(ctx, await key(ctx, who, "ci", ["sla:read", "account:read"]));
  equal(p.kind, "api_key");
  if (p.kind !== "api_key") return;
  equal(p.account.id, who.account.id);
  deepStrictEqual([...p.scopes].sort(), ["account:read", "sla:read"]);
});

Deno.test("a key created with no scope selected holds all nine", async () => {
  await using ctx = testContext();
  const who = await account(ctx, "owner@example.com");
  const p = await authenticate(ctx, await key(ctx, who, "all"));
  deepStrictEqual(p.kind === "api_key" ? p.scopes : null, ALL_SCOPES);
});

Deno.test("a legacy key stored without a scope list holds all nine", async () => {
  await using ctx = testContext();
  const who = await account(ctx, "owner@example.com");
  const secret = await storeRawKey(ctx, who.account.id, "old integration", null);
  const p = await authenticate(ctx, secret);
  deepStrictEqual(p.kind === "api_key" ? p.scopes : null, ALL_SCOPES);
  deepStrictEqual((await listKeys(ctx, p)).map((k) => [k.name, k.legacy, k.scopes.length]), [
    ["old integration", true, 9],
  ]);
});

Deno.test("unknown, malformed and revoked keys are refused", async () => {
  await using ctx = testContext();
  const who = await account(ctx, "owner@example.com");
  const secret = await key(ctx, who, "ci");
  await rejects(() => authenticate(ctx, "sd_live_" + "A".repeat(43)), /Unknown API key/);
  await rejects(() => authenticate(ctx, "sd_live_short"), /Malformed API key/);
  await rejects(() => authenticate(ctx, "not-a-key"), Unauthorized);
  await rejects(() => authenticate(ctx, ""), Unauthorized);
  const id = (await listKeys(ctx, { kind: "admin", account: who.account }))[0]!.id;
  await revokeKey(ctx, { kind: "admin", account: who.account }, id);
  await rejects(() => authenticate(ctx, secret), /revoked/);
  // A revoked key stays revoked; it also leaves the list.
  await revokeKey(ctx, { kind: "admin", account: who.account }, id);
  await rejects(() => authenticate(ctx, secret), /revoked/);
  deepStrictEqual(await listKeys(ctx, { kind: "admin", account: who.account }), []);
});

Deno.test("FREE accounts cannot create keys; PRO, TEAM and ENTERPRISE can", async () => {
  await using ctx = testContext();
  const free = await account(ctx, "free@example.com", "FREE");
  await rejects(
    () => key(ctx, free, "x"),
    (e) => e instanceof PlanRequired && e.requiredPlan === "PRO",
  );
  for (const plan of ["TEAM", "ENTERPRISE"] as const) {
    await setPlanInStore(ctx, free.account.id, plan);
    const secret = await key(ctx, { ...free, account: { ...free.account, plan } }, `k-${plan}`);
    equal((await authenticate(ctx, secret)).kind, "api_key");
  }
});

Deno.test("only owners may create keys from a session; members may not revoke", async () => {
  await using ctx = testContext();
  const who = await account(ctx, "owner@example.com");
  const member = { ...who.member, role: "MEMBER" as const };
  const admin = { ...who.member, role: "ADMIN" as const };
  await rejects(
    () =>
      createKey(ctx, { kind: "session", account: who.account, member }, { name: "x", scopes: [] }),
    Forbidden,
  );
  await rejects(
    () =>
      createKey(ctx, { kind: "session", account: who.account, member: admin }, {
        name: "x",
        scopes: [],
      }),
    Forbidden,
  );
  const owner = { kind: "session" as const, account: who.account, member: who.member };
  const created = await createKey(ctx, owner, { name: "x", scopes: [] });
  await rejects(
    () => revokeKey(ctx, { kind: "session", account: who.account, member }, created.key.id),
    Forbidden,
  );
  equal(
    (await revokeKey(ctx, { kind: "session", account: who.account, member: admin }, created.key.id))
      .name,
    "x",
  );
});

Deno.test("names are required, unique among active keys, and scopes must be real", async () => {
  await using ctx = testContext();
  const who = await account(ctx, "owner@example.com");
  await key(ctx, who, "ci");
  await rejects(() => key(ctx, who, "ci"), /already named "ci"/);
  await rejects(() => key(ctx, who, "   "), InvalidRequest);
  await rejects(
    () =>
      createKey(ctx, { kind: "admin", account: who.account }, { name: "y", scopes: ["sla:write"] }),
    /unknown scope "sla:write"/,
  );
  await revokeKeyByName(ctx, { kind: "admin", account: who.account }, "ci");
  await key(ctx, who, "ci"); // the name is free again once the old key is revoked
});

Deno.test("keys of one account are invisible to another", async () => {
  await using ctx = testContext();
  const a = await account(ctx, "a@example.com");
  const b = await account(ctx, "b@example.com");
  await key(ctx, a, "a-key");
  deepStrictEqual(await listKeys(ctx, { kind: "admin", account: b.account }), []);
  const aKey = (await listKeys(ctx, { kind: "admin", account: a.account }))[0]!;
  await rejects(() => revokeKey(ctx, { kind: "admin", account: b.account }, aKey.id), /No API key/);
});

Deno.test("last used is recorded after the request, at most once a minute per key", async () => {
  const clock = fixedClock(T0);
  await using ctx = testContext({ clock });
  const who = await account(ctx, "owner@example.com");
  const secret = await key(ctx, who, "ci");
  const lastUsed = async () =>
    (await listKeys(ctx, { kind: "admin", account: who.account }))[0]!.lastUsedAt;
  // Not written on the request's path: no write has started when the request is through. (Reading
  // the row instead raced the write on a loaded machine with PostgreSQL.)
  const keys = ctx.store.keys as { touch: typeof ctx.store.keys.touch };
  const touch = keys.touch.bind(keys);
  let writes = 0;
  keys.touch = (uses) => (writes++, touch(uses));
  await authenticate(ctx, secret);
  equal(writes, 0);
  // Written right after, on its own (no flush): wait for it (a database may take a while).
  for (let i = 0; i < 200 && await lastUsed() === null; i++) await tick();
  equal(await lastUsed(), T0);
  clock.advance(30_000);
  await authenticate(ctx, secret);
  await ctx.keyUses.flush();
  equal(await lastUsed(), T0); // within the minute: unchanged
  clock.advance(MINUTE_MS);
  await authenticate(ctx, secret);
  await authenticate(ctx, secret);
  await ctx.keyUses.flush();
  equal(await lastUsed(), T0 + 30_000 + MINUTE_MS);
});

Deno.test("the secret never appears in a log line or a listing", async () => {
  await using ctx = testContext();
  const who = await account(ctx, "owner@example.com");
  const secret = await key(ctx, who, "ci");
  await authenticate(ctx, secret);
  await revokeKeyByName(ctx, { kind: "admin", account: who.account }, "ci");
  await rejects(() => authenticate(ctx, secret), /revoked/);
  await ctx.keyUses.flush();
  ok(ctx.lines.length >= 2);
  const tail = secret.slice(12);
  ok(!ctx.lines.some((l) => l.includes(tail)), ctx.lines.join("\n"));
  ok(!JSON.stringify(await listKeys(ctx, { kind: "admin", account: who.account })).includes(tail));
});

Deno.test("a plan below Pro refuses key-authenticated key management", async () => {
  await using ctx = testContext();
  const who = await account(ctx, "owner@example.com");
  const secret = await key(ctx, who, "ci");
  await setPlanInStore(ctx, who.account.id, "FREE");
  const p = await authenticate(ctx, secret);
  await rejects(() => listKeys(ctx, p), PlanRequired);
});
