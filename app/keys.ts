/**
 * API keys: create (the secret is returned once), list (metadata only), revoke, and verify a
 * presented key. Keys are `sd_live_` + 32 random bytes (256 bits, base64url); the store keeps
 * only their SHA-256 and a short display prefix.
 * @module
 */
import { z } from "zod";
import {
  ALL_SCOPES,
  type ApiKeyRecord,
  effectiveScopes,
  Forbidden,
  InvalidRequest,
  isScope,
  NotFound,
  planAtLeast,
  PlanRequired,
  type Principal,
  type Scope,
  SCOPES,
  Unauthorized,
} from "../domain/mod.ts";
import type { AppContext } from "./context.ts";
import { type Access, type AdminCaller, authorize, roleAllows, scopesFor } from "./policy.ts";
import { hashToken, randomToken, sameText } from "./_tokens.ts";

/** Every key starts with this. */
export const KEY_PREFIX = "sd_live_";
/** Characters of the key kept for display (`sd_live_` + 4). */
const DISPLAY_LENGTH = KEY_PREFIX.length + 4;
const KEY_SHAPE = /^sd_live_[A-Za-z0-9_-]{43}$/;
/** The lowest plan that may create and manage keys (SPEC §5). */
export const KEY_PLAN = "PRO";

/** Who may read the scope list over the API: any valid key or token. */
export const LIST_SCOPES: Access = { credential: "key", scopes: [] };

/** The nine scopes with what each grants, in the table's order. */
export function listScopes(who: Principal): { scope: Scope; grants: string }[] {
  authorize(who, LIST_SCOPES);
  return ALL_SCOPES.map((scope) => ({ scope, grants: SCOPES[scope] }));
}

/** Who manages keys: a signed-in person, or the self-hoster at `statusd admin`. */
export type KeyManager = Extract<Principal, { kind: "session" }> | AdminCaller;

/**
 * Who may list an account's keys over the API: a key or token holding `account:read`, on the
 * Pro plan or above (signed-in people always see their keys, to revoke them).
 */
export const LIST_KEYS: Access = {
  credential: "key",
  scopes: ["account:read"],
  plan: { plan: KEY_PLAN, feature: "Managing API keys" },
};

/** A key's metadata as every surface shows it: never the secret, never its hash. */
export interface KeyView {
  readonly id: string;
  readonly name: string;
  /** Start of the key (`sd_live_AbCd`), to recognise it. */
  readonly prefix: string;
  /** Scopes the key holds (all nine for a legacy key or one created with none selected). */
  readonly scopes: Scope[];
  /** True for a key stored without a scope list (made before scopes existed). */
  readonly legacy: boolean;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
  readonly revokedAt: number | null;
}

function view(r: ApiKeyRecord): KeyView {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: effectiveScopes(r.scopes),
    legacy: r.scopes === null,
    createdAt: r.createdAt,
    lastUsedAt: r.lastUsedAt,
    revokedAt: r.revokedAt,
  };
}

/** Creating keys: signed-in owners (and the self-hoster), on the Pro plan or above. */
export const CREATE_KEYS: Access = {
  credential: "key",
  scopes: [],
  role: { least: "OWNER", refusal: "Only account owners can create API keys" },
};

/**
 * Why `who` may not create keys, or null when they may: the plan must be Pro or above and a
 * signed-in person must be an owner ({@link CREATE_KEYS}).
 */
export function keyCreationBlocker(who: KeyManager): PlanRequired | Forbidden | null {
  if (!planAtLeast(who.account.plan, KEY_PLAN)) {
    return new PlanRequired(KEY_PLAN, "Creating API keys");
  }
  if (who.kind === "session" && !roleAllows(who.member.role, CREATE_KEYS)) {
    return new Forbidden(
      `${CREATE_KEYS.role!.refusal}; you are signed in as ${who.member.role}.`,
    );
  }
  return null;
}

const NameSchema = z.string().trim().min(1, "give the key a name").max(
  64,
  "use at most 64 characters",
);

/** Parses scope strings; an unknown one is an InvalidRequest naming it. */
export function parseScopes(values: readonly string[]): Scope[] {
  const bad = values.filter((v) => !isScope(v));
  if (bad.length) {
    throw new InvalidRequest([{
      parameter: "scopes",
      message: `unknown scope ${bad.map((b) => `"${b}"`).join(", ")}`,
    }]);
  }
  return [...new Set(values as Scope[])];
}

/** A new key and its secret. The secret exists only in this return value. */
export interface CreatedKey {
  readonly key: KeyView;
  readonly secret: string;
}

/** Creates a key; an empty scope list grants all nine. Names are unique among active keys. */
export async function createKey(
  ctx: AppContext,
  who: KeyManager,
  input: { name: string; scopes: readonly string[] },
): Promise<CreatedKey> {
  const blocker = keyCreationBlocker(who);
  if (blocker) throw blocker;
  const parsed = NameSchema.safeParse(input.name);
  if (!parsed.success) {
    throw new InvalidRequest([{ parameter: "name", message: parsed.error.issues[0]!.message }]);
  }
  const name = parsed.data;
  const chosen = parseScopes(input.scopes);
  const scopes = effectiveScopes(chosen);
  const secret = KEY_PREFIX + randomToken(32);
  const record = {
    id: crypto.randomUUID(),
    accountId: who.account.id,
    name,
    prefix: secret.slice(0, DISPLAY_LENGTH),
    scopes,
    createdAt: ctx.clock.now(),
    memberId: who.kind === "session" ? who.member.id : null,
  };
  if (!await ctx.store.keys.create({ ...record, keyHash: hashToken(secret) })) {
    throw new InvalidRequest([{
      parameter: "name",
      message: `an active key is already named "${name}"`,
    }]);
  }
  ctx.log.info("api key created", { accountId: who.account.id, keyId: record.id, scopes });
  return { key: view({ ...record, lastUsedAt: null, revokedAt: null }), secret };
}

/**
 * The account's active keys (metadata only), newest first. Keys and tokens calling the API
 * need the account on Pro or above; signed-in people always see their keys (to revoke them).
 */
export async function listKeys(ctx: AppContext, who: Principal | KeyManager): Promise<KeyView[]> {
  authorize(who, LIST_KEYS);
  if (who.kind === "anonymous") throw new Unauthorized();
  return (await ctx.store.keys.list(who.account.id)).map(view);
}

/** Revoking keys: signed-in owners and admins (and the self-hoster). */
export const REVOKE_KEYS: Access = {
  credential: "key",
  scopes: [],
  role: { least: "ADMIN", refusal: "Only account owners and admins can revoke API keys." },
};

/**
 * Revokes one of the account's keys at once and for good. Allowed on any plan, so a
 * downgraded account can still shut its keys off. Revoking a revoked key changes nothing.
 */
export async function revokeKey(
  ctx: AppContext,
  who: KeyManager,
  keyId: string,
): Promise<KeyView> {
  authorize(who, REVOKE_KEYS);
  const done = await ctx.store.keys.revoke(who.account.id, keyId, ctx.clock.now());
  if (!done) throw new NotFound("API key", keyId);
  if (done.revokedNow) ctx.log.info("api key revoked", { accountId: who.account.id, keyId });
  return view(done.key);
}

/** Revokes the account's active key with that name (admin command). */
export async function revokeKeyByName(
  ctx: AppContext,
  who: KeyManager,
  name: string,
): Promise<KeyView> {
  const found = await ctx.store.keys.activeByName(who.account.id, name);
  if (!found) throw new NotFound("active API key named", name);
  return await revokeKey(ctx, who, found.id);
}

/** True when the text looks like one of our keys (it may still be unknown or revoked). */
export function looksLikeKey(credential: string): boolean {
  return credential.startsWith(KEY_PREFIX);
}

/**
 * Verifies a presented key: malformed, unknown or revoked → Unauthorized; otherwise the
 * key's principal with the account as stored now. Records the use off the request's path.
 */
export async function authenticateKey(ctx: AppContext, credential: string): Promise<Principal> {
  if (!KEY_SHAPE.test(credential)) throw new Unauthorized("Malformed API key");
  const hash = hashToken(credential);
  const found = await ctx.store.keys.byHash(hash);
  if (!found || !sameText(found.keyHash, hash)) throw new Unauthorized("Unknown API key");
  if (found.key.revokedAt !== null) throw new Unauthorized("This API key has been revoked");
  ctx.keyUses.note(found.key, ctx.clock.now());
  return {
    kind: "api_key",
    account: found.account,
    keyId: found.key.id,
    // Bounded by the current role of the member who made it: a demoted owner's keys lose write.
    scopes: scopesFor(found.makerRole, effectiveScopes(found.key.scopes)),
  };
}
