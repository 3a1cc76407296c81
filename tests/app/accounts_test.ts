import { deepStrictEqual, equal, match, notEqual, ok, rejects } from "node:assert/strict";
import {
  addMember,
  endSession,
  listAccounts,
  resolveSession,
  setPlan,
  setSlaTarget,
  signIn,
  startSession,
} from "../../app/mod.ts";
import { hashPassword, verifyPassword } from "../../app/password.ts";
import { DAY_MS, fixedClock, InvalidRequest } from "../../domain/mod.ts";
import { account, key, PASSWORD, T0, testContext } from "../support/accounts.ts";

Deno.test("passwords are stored as salted scrypt with a high cost, never in clear", async () => {
  const a = await hashPassword("hunter2hunter2");
  const b = await hashPassword("hunter2hunter2");
  match(a, /^scrypt\$131072\$8\$1\$/);
  notEqual(a, b); // salted
  ok(!a.includes("hunter2"));
  equal(await verifyPassword("hunter2hunter2", a), true);
  equal(await verifyPassword("hunter2hunter3", a), false);
  equal(await verifyPassword("hunter2hunter2", "garbage"), false);
});

Deno.test("accounts made through the verbs hash at production's cost unless a test lowers it", async () => {
  const { createAccount } = await import("../../app/mod.ts");
  await using production = testContext({ productionHashing: true });
  const made = await createAccount(production, {
    email: "real@example.com",
    password: "a long enough password",
    plan: "PRO",
  });
  const stored = await production.store.accounts.membershipByEmail("real@example.com");
  match(stored!.member.passwordHash, /^scrypt\$131072\$8\$1\$/);
  equal(made.member.email, "real@example.com");
  await using lowered = testContext();
  await createAccount(lowered, {
    email: "test@example.com",
    password: "a long enough password",
    plan: "PRO",
  });
  const cheap = await lowered.store.accounts.membershipByEmail("test@example.com");
  match(cheap!.member.passwordHash, /^scrypt\$1024\$8\$1\$/);
  equal((await signIn(lowered, "test@example.com", "a long enough password")).member.role, "OWNER");
});

Deno.test("sign-in accepts the right password and refuses a wrong one or an unknown email alike", async () => {
  await using ctx = testContext();
  await account(ctx, "Owner@Example.com");
  equal((await signIn(ctx, "owner@example.com", PASSWORD)).member.role, "OWNER");
  await rejects(signIn(ctx, "owner@example.com", "wrong password!"), /Wrong email or password/);
  await rejects(signIn(ctx, "nobody@example.com", PASSWORD), /Wrong email or password/);
});

Deno.test("an email is used once; bad emails and short passwords name the field", async () => {
  await using ctx = testContext();
  await account(ctx, "owner@example.com");
  await rejects(account(ctx, "OWNER@example.com"), /email: an account with this email exists/);
  await rejects(
    account(ctx, "not an email"),
    (e) => e instanceof InvalidRequest && e.issues[0]!.parameter === "email",
  );
  await rejects(
    account(ctx, "x@example.com").then(() =>
      addMember(ctx, {
        ownerEmail: "x@example.com",
        email: "y@example.com",
        password: "short",
        role: "MEMBER",
      })
    ),
    /password: use at least 10 characters/,
  );
});

Deno.test("set-plan and the SLA target change the account; the list shows owners and keys", async () => {
  await using ctx = testContext();
  const who = await account(ctx, "owner@example.com", "FREE");
  equal(who.account.slaTarget, 99.9);
  equal((await setPlan(ctx, "owner@example.com", "TEAM")).plan, "TEAM");
  equal((await setSlaTarget(ctx, "owner@example.com", 99.5)).slaTarget, 99.5);
  await rejects(() => setSlaTarget(ctx, "owner@example.com", 101), InvalidRequest);
  await rejects(
    () => setPlan(ctx, "ghost@example.com", "PRO"),
    /No account for email "ghost@example.com"/,
  );
  await key(ctx, { ...who, account: { ...who.account, plan: "TEAM" } }, "ci");
  const [row] = await listAccounts(ctx);
  deepStrictEqual([row!.plan, row!.owners, row!.members, row!.activeKeys, row!.slaTarget], [
    "TEAM",
    ["owner@example.com"],
    1,
    1,
    99.5,
  ]);
});

Deno.test("sessions resolve until they expire or end; only the id's hash is stored", async () => {
  const clock = fixedClock(T0);
  await using ctx = testContext({ clock });
  const who = await account(ctx, "owner@example.com");
  const { sessionId } = await startSession(ctx, who);
  const s = await resolveSession(ctx, sessionId);
  equal(s?.principal.member.email, "owner@example.com");
  // The store knows the session by the id's SHA-256 only.
  ok(await ctx.store.sessions.resolve(await sha256Hex(sessionId), T0));
  equal(await ctx.store.sessions.resolve(sessionId, T0), null);
  equal(await resolveSession(ctx, "x".repeat(43)), null);
  clock.advance(15 * DAY_MS);
  equal(await resolveSession(ctx, sessionId), null);
  clock.set(T0);
  await endSession(ctx, sessionId);
  equal(await resolveSession(ctx, sessionId), null);
});

async function sha256Hex(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
