/**
 * Accounts and people: create (admin command, sign-up), sign in, plans, SLA targets, members.
 * @module
 */
import { z } from "zod";
import {
  type Account,
  type AccountSummary,
  type AttemptRule,
  DEFAULT_SLA_TARGET,
  InvalidRequest,
  type Member,
  type MembershipRecord,
  MINUTE_MS,
  NotFound,
  type Plan,
  PLANS,
  RateLimited,
  type Role,
  ROLES,
  Unauthorized,
} from "../domain/mod.ts";
import { isMacOf, macOf } from "./_secrets.ts";
import type { AppContext } from "./context.ts";
import { hashPassword, verifyDecoy, verifyPassword } from "./password.ts";

/** Shortest password accepted. */
export const MIN_PASSWORD_LENGTH = 10;

const EmailSchema = z.email("enter an email address like name@example.com").max(254);
const PasswordSchema = z.string()
  .min(MIN_PASSWORD_LENGTH, `use at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(1024, "use at most 1024 characters");

function check<T>(parameter: string, schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) {
    throw new InvalidRequest(r.error.issues.map((i) => ({ parameter, message: i.message })));
  }
  return r.data;
}

/** A member and the account they belong to. */
export interface Membership {
  readonly account: Account;
  readonly member: Member;
}

/** What a new account starts with. */
export interface NewAccount {
  readonly email: string;
  readonly password: string;
  readonly plan: Plan;
  /** Display name; defaults to the email. */
  readonly name?: string;
}

function emailTaken(): InvalidRequest {
  return new InvalidRequest([{ parameter: "email", message: "an account with this email exists" }]);
}

/** Creates an account with its first member as OWNER. Email must be new. */
export function createAccount(ctx: AppContext, input: NewAccount): Promise<Membership> {
  return createAccountHashedBy(
    ctx,
    input,
    (password) => hashPassword(password, "other", ctx.settings.passwordCost),
  );
}

/**
 * {@link createAccount} with the password's hash made by `hash` (the test suite hashes its one
 * password once: scrypt takes half a second, and hundreds of tests make accounts).
 */
export async function createAccountHashedBy(
  ctx: AppContext,
  input: NewAccount,
  hash: (password: string) => Promise<string>,
): Promise<Membership> {
  const email = check("email", EmailSchema, input.email.trim());
  const password = check("password", PasswordSchema, input.password);
  const plan = check("plan", z.enum(PLANS), input.plan);
  if (await ctx.store.accounts.membershipByEmail(email)) throw emailTaken();
  const passwordHash = await hash(password);
  const now = ctx.clock.now();
  const account: Account = {
    id: crypto.randomUUID(),
    name: input.name?.trim() || email,
    plan,
    slaTarget: DEFAULT_SLA_TARGET,
    createdAt: now,
  };
  const member: Member = { id: crypto.randomUUID(), accountId: account.id, email, role: "OWNER" };
  if (!await ctx.store.accounts.create(account, { ...member, passwordHash, createdAt: now })) {
    throw emailTaken();
  }
  ctx.log.info("account created", { accountId: account.id, plan });
  return { account, member };
}

/**
 * The plan a sign-up gets, and whether it would be the first account: the top plan for the first
 * account of an empty database (on a self-hosted instance, its operator's), else the configured
 * sign-up plan (FREE by default).
 */
export async function signUpTerms(ctx: AppContext): Promise<{ plan: Plan; first: boolean }> {
  const first = !seenAccounts.has(ctx.store) && (await ctx.store.accounts.list()).length === 0;
  if (!first) seenAccounts.add(ctx.store);
  return { plan: first ? PLANS[PLANS.length - 1]! : ctx.settings.signupPlan ?? "FREE", first };
}

/**
 * Stores known to hold an account: accounts are never deleted, so once one exists the sign-up
 * page need not list them again to say which plan a sign-up gets.
 */
const seenAccounts = new WeakSet<object>();

/**
 * Self-service sign-up: a new account on the sign-up plan ({@link signUpTerms}), returned so
 * the browser can sign its person in. For a taken email it creates nothing, after spending the
 * same time (one password hash), and returns null: the person then signs in as usual. Bad
 * input (email shape, password length) is still refused with `InvalidRequest`.
 */
export async function signUp(
  ctx: AppContext,
  email: string,
  password: string,
): Promise<Membership | null> {
  const address = check("email", EmailSchema, email.trim());
  check("password", PasswordSchema, password);
  if (await ctx.store.accounts.membershipByEmail(address)) {
    await hashPassword(password, "other", ctx.settings.passwordCost);
    return null;
  }
  try {
    return await createAccount(ctx, {
      email: address,
      password,
      plan: (await signUpTerms(ctx)).plan,
    });
  } catch (err) {
    // Taken between the check and the insert: the same answer as a taken email.
    if (!(err instanceof InvalidRequest && await ctx.store.accounts.membershipByEmail(address))) {
      throw err;
    }
    return null;
  }
}

/** Adds a person to the account of `ownerEmail` with `role`. */
export async function addMember(
  ctx: AppContext,
  input: { ownerEmail: string; email: string; password: string; role: Role },
): Promise<Membership> {
  const { account } = await membershipOf(ctx, input.ownerEmail);
  const email = check("email", EmailSchema, input.email.trim());
  const password = check("password", PasswordSchema, input.password);
  const role = check("role", z.enum(ROLES), input.role);
  if (await ctx.store.accounts.membershipByEmail(email)) throw emailTaken();
  const passwordHash = await hashPassword(password, "other", ctx.settings.passwordCost);
  const member: Member = { id: crypto.randomUUID(), accountId: account.id, email, role };
  if (
    !await ctx.store.accounts.addMember({ ...member, passwordHash, createdAt: ctx.clock.now() })
  ) {
    throw emailTaken();
  }
  return { account, member };
}

/**
 * Gives the person with `email` another role in their account (the self-hoster's `statusd admin
 * set-role`). It takes effect at once everywhere: their session, and the scopes of every key they
 * made and every application they approved (app ROLE_SCOPES). The last owner stays an owner.
 */
export async function setMemberRole(
  ctx: AppContext,
  input: { email: string; role: Role },
): Promise<Membership> {
  const role = check("role", z.enum(ROLES), input.role);
  const { account, member } = await membershipOf(ctx, input.email);
  const done = await ctx.store.accounts.setRole(account.id, member.id, role);
  if (done === null) throw new NotFound("member", input.email);
  if (done === "last_owner") {
    throw new InvalidRequest([{
      parameter: "role",
      message: `${member.email} is the account's only owner: make another member owner first`,
    }]);
  }
  ctx.log.info("member role changed", { accountId: account.id, memberId: member.id, role });
  return { account, member: done };
}

/**
 * Failed sign-ins one email may collect per window; past it every attempt for that email is
 * refused (`RateLimited`) without checking the password, whether or not the email has an
 * account. A successful sign-in does not count.
 */
export const SIGN_IN_ACCOUNT_LIMIT: AttemptRule = {
  limit: 10,
  windowMs: 15 * MINUTE_MS,
  maxKeys: 10_000,
};

async function checkPassword(
  ctx: AppContext,
  found: MembershipRecord | null,
  gateKey: string,
  password: string,
): Promise<Membership | null> {
  const ok = found
    ? await verifyPassword(password, found.member.passwordHash, "member", gateKey)
    : await verifyDecoy(password, ctx.settings.passwordCost);
  if (!found || !ok) return null;
  const { passwordHash: _, ...member } = found.member;
  return { account: found.account, member };
}

/** The secret device tokens are signed under. */
const DEVICE_SECRET = "sign-in-devices";

/**
 * A token a browser keeps after signing in as `memberId` (`<member>.<HMAC>` under a server
 * secret): later sign-ins from it are throttled on their own, not with every failure for the
 * email (OWASP's device cookies against lockout attacks).
 */
export async function deviceToken(ctx: AppContext, memberId: string): Promise<string> {
  return `${memberId}.${await macOf(ctx, DEVICE_SECRET, `device:${memberId}`)}`;
}

async function isDeviceOf(ctx: AppContext, token: string, memberId: string): Promise<boolean> {
  const at = token.lastIndexOf(".");
  if (at < 0 || token.slice(0, at) !== memberId) return false;
  return await isMacOf(ctx, DEVICE_SECRET, `device:${memberId}`, token.slice(at + 1));
}

/** The name failed sign-ins per email are counted under (`store.attempts`). */
const SIGN_IN_SCOPE = "sign-in-email";

/**
 * Checks an email and password; the same Unauthorized for an unknown email or a wrong
 * password, and the same RateLimited for any email past {@link SIGN_IN_ACCOUNT_LIMIT}.
 */
export async function signIn(
  ctx: AppContext,
  email: string,
  password: string,
  options: { readonly device?: string } = {},
): Promise<Membership> {
  const address = email.trim();
  const found = await ctx.store.accounts.membershipByEmail(address);
  // No account has an email longer than 254 characters; the cut bounds the counter's memory.
  const email_ = address.slice(0, 320).toLowerCase();
  // A browser this member signed in with before is counted on its own: a storm of wrong
  // passwords for the email from elsewhere locks the email, not the member's own browser.
  const known = found !== null && options.device !== undefined &&
    await isDeviceOf(ctx, options.device, found.member.id);
  const key = known ? `${email_}#device` : email_;
  const failures = ctx.store.attempts;
  const rule = SIGN_IN_ACCOUNT_LIMIT;
  const waitMs = await failures.take(SIGN_IN_SCOPE, key, rule, ctx.clock.now());
  if (waitMs > 0) throw new RateLimited(Math.ceil(waitMs / 1000));
  let who: Membership | null;
  try {
    who = await checkPassword(ctx, found, key, password);
  } catch (err) {
    // busy or broken: not a wrong guess
    await failures.refund(SIGN_IN_SCOPE, key, rule, ctx.clock.now());
    throw err;
  }
  if (!who) throw new Unauthorized("Wrong email or password");
  await failures.refund(SIGN_IN_SCOPE, key, rule, ctx.clock.now());
  return who;
}

/** The member with that email and their account; NotFound when no one has it. */
export async function membershipOf(ctx: AppContext, email: string): Promise<Membership> {
  const found = await ctx.store.accounts.membershipByEmail(email.trim());
  if (!found) throw new NotFound("account for email", email);
  const { passwordHash: _, ...member } = found.member;
  return { account: found.account, member };
}

/** Changes the plan of the account `email` belongs to; returns the updated account. */
export async function setPlan(ctx: AppContext, email: string, plan: Plan): Promise<Account> {
  const { account } = await membershipOf(ctx, email);
  const updated = await ctx.store.accounts.setPlan(account.id, check("plan", z.enum(PLANS), plan));
  if (!updated) throw new NotFound("account for email", email);
  return updated;
}

/** Changes the SLA target (percent, above 0 and at most 100) of the account `email` belongs to. */
export async function setSlaTarget(
  ctx: AppContext,
  email: string,
  target: number,
): Promise<Account> {
  const { account } = await membershipOf(ctx, email);
  const t = check("target", z.number().gt(0).max(100), target);
  const updated = await ctx.store.accounts.setSlaTarget(account.id, t);
  if (!updated) throw new NotFound("account for email", email);
  return updated;
}

/** The account as stored now (plan changes apply to live sessions and keys), or null. */
export function currentAccount(ctx: AppContext, accountId: string): Promise<Account | null> {
  return ctx.store.accounts.byId(accountId);
}

/** Every account with owners, member count and active key count. */
export async function listAccounts(ctx: AppContext): Promise<AccountSummary[]> {
  return [...await ctx.store.accounts.list()];
}
