/**
 * Test helpers for the account side: an in-memory store with a verb context, accounts, keys.
 */
import {
  type AppContext,
  createAccountHashedBy,
  createAppContext,
  createKey,
  type Membership,
  storedHash,
} from "../../app/mod.ts";
import {
  type Clock,
  fixedClock,
  type PackageSignals,
  type PageRead,
  type Plan,
  type Scope,
} from "../../domain/mod.ts";
import { createLogger, type Logger } from "../../log.ts";
import { scryptSync } from "node:crypto";
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase64urlNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { memoryStore } from "./store.ts";

/** 2026-03-01T12:00:00Z. */
export const T0 = Date.UTC(2026, 2, 1, 12);

/**
 * The scrypt cost test contexts hash new passwords and the decoy at (N = 2^10): a stored hash
 * carries its own parameters, so every verb works the same; production's cost (N = 2^17, half a
 * second of CPU a hash) is checked by tests/app/accounts_test.ts.
 */
export const TEST_PASSWORD_COST = { N: 1024, r: 8, p: 1 } as const;

/** A password long enough for the rules. */
export const PASSWORD = "correct horse battery";

/** A verb context over a fresh in-memory store; `lines` collects every log line. */
export function testContext(
  opts: {
    clock?: Clock;
    publicUrl?: string;
    signals?: PackageSignals;
    mailEnabled?: boolean;
    signupPlan?: Plan;
    checkDestination?: (url: string) => Promise<string | null>;
    /** How pages added by URL are read. */
    readStatusPage?: (url: string) => Promise<PageRead>;
    /** Hash at production's cost, as `main.ts` does (tests/app/accounts_test.ts). */
    productionHashing?: boolean;
    /** Hash at this cost instead of {@link TEST_PASSWORD_COST}. */
    passwordCost?: { N: number; r: number; p: number };
  } = {},
): AppContext & { lines: string[] } & AsyncDisposable {
  const lines: string[] = [];
  const log: Logger = createLogger("debug", (l) => lines.push(l));
  const ctx = createAppContext({
    store: memoryStore(),
    clock: opts.clock ?? fixedClock(T0),
    log,
    settings: {
      publicUrl: opts.publicUrl ?? "http://localhost:8080",
      pollStableSeconds: 300,
      pollMovingSeconds: 60,
      ...(opts.signals ? { signals: opts.signals } : {}),
      ...(opts.mailEnabled ? { mailEnabled: true } : {}),
      ...(opts.signupPlan ? { signupPlan: opts.signupPlan } : {}),
      ...(opts.productionHashing ? {} : { passwordCost: opts.passwordCost ?? TEST_PASSWORD_COST }),
    },
    ...(opts.checkDestination ? { checkDestination: opts.checkDestination } : {}),
    ...(opts.readStatusPage ? { readStatusPage: opts.readStatusPage } : {}),
  });
  // `await using ctx = testContext()` closes the store when the test ends (on PostgreSQL that
  // drops the test's database and ends its pool).
  return Object.assign(ctx, { lines, [Symbol.asyncDispose]: () => ctx.store.close() });
}

/**
 * {@link PASSWORD} hashed as statusd stores it, at a low scrypt cost (N = 2^10): a stored hash
 * carries its own parameters, so each sign-in of a test account costs a millisecond instead of
 * production's half second. Accounts made by `createAccount` or sign-up, and the decoy checked
 * for unknown emails, still hash at production's cost.
 */
export const TEST_PASSWORD_HASH: string = (() => {
  const cost = TEST_PASSWORD_COST;
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const key = scryptSync(PASSWORD.normalize("NFKC"), salt, 32, cost);
  return storedHash(cost, salt, new Uint8Array(key));
})();

/**
 * An account with one OWNER whose password is {@link PASSWORD}, made by the verb people use, with
 * {@link TEST_PASSWORD_HASH} (tests of sign-up itself call `createAccount`).
 */
export function account(ctx: AppContext, email: string, plan: Plan = "PRO"): Promise<Membership> {
  return createAccountHashedBy(ctx, { email, password: PASSWORD, plan }, (password) => {
    if (password !== PASSWORD) throw new Error("the test suite's accounts use PASSWORD");
    return Promise.resolve(TEST_PASSWORD_HASH);
  });
}

/** Creates a key as the self-hoster would (admin); returns the secret. */
export async function key(
  ctx: AppContext,
  who: Membership,
  name: string,
  scopes: Scope[] = [],
): Promise<string> {
  return (await createKey(ctx, { kind: "admin", account: who.account }, { name, scopes })).secret;
}

/**
 * Stores a key through the store's port as a key made before scopes existed looks (`scopes`
 * null: no verb creates one any more); returns its secret.
 */
export async function storeRawKey(
  ctx: AppContext,
  accountId: string,
  name: string,
  scopes: Scope[] | null,
): Promise<string> {
  const secret = "sd_live_" + encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)));
  await ctx.store.keys.create({
    id: crypto.randomUUID(),
    accountId,
    name,
    prefix: secret.slice(0, 12),
    scopes,
    createdAt: ctx.clock.now(),
    keyHash: encodeHexLowerCase(sha256(new TextEncoder().encode(secret))),
    memberId: null,
  });
  return secret;
}

/** Changes an account's plan in the store. */
export async function setPlanInStore(
  ctx: AppContext,
  accountId: string,
  plan: Plan,
): Promise<void> {
  await ctx.store.accounts.setPlan(accountId, plan);
}
