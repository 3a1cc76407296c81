/**
 * API keys: create (the secret is returned once), list (metadata only), revoke, and verify a
 * presented key. Keys are `sd_live_` + 32 random bytes (256 bits, base64url); the store keeps
 * only their SHA-256 and a short display prefix.
 * @module
 */
import { z } from "zod";
import {
  type Account,
  effectiveScopes,
  Forbidden,
  InvalidRequest,
  isScope,
  MINUTE_MS,
  NotFound,
  planAtLeast,
  PlanRequired,
  type Principal,
  type Scope,
  Unauthorized,
} from "../domain/mod.ts";
import {
  accountById,
  activeApiKeyByName,
  apiKeyByHash,
  apiKeyById,
  type ApiKeyRecord,
  type Db,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  touchApiKeys,
  transaction,
} from "../store/mod.ts";
import type { AppContext } from "./context.ts";
import { hashToken, randomToken, sameText } from "./_tokens.ts";

/** Every key starts with this. */
export const KEY_PREFIX = "sd_live_";
/** Characters of the key kept for display (`sd_live_` + 4). */
const DISPLAY_LENGTH = KEY_PREFIX.length + 4;
const KEY_SHAPE = /^sd_live_[A-Za-z0-9_-]{43}$/;
/** The lowest plan that may create and manage keys (SPEC §5). */
export const KEY_PLAN = "PRO";

/** Who manages keys: a signed-in person, or the self-hoster at `statusd admin`. */
export type KeyManager =
  | Extract<Principal, { kind: "session" }>
  | { readonly kind: "admin"; readonly account: Account };

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

/**
 * Why `who` may not create keys, or null when they may: the plan must be Pro or above and a
 * signed-in person must be an owner.
 */
export function keyCreationBlocker(who: KeyManager): PlanRequired | Forbidden | null {
  if (!planAtLeast(who.account.plan, KEY_PLAN)) {
    return new PlanRequired(KEY_PLAN, "Creating API keys");
  }
  if (who.kind === "session" && who.member.role !== "OWNER") {
    return new Forbidden(
      `Only account owners can create API keys; you are signed in as ${who.member.role}.`,
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
export function createKey(
  ctx: AppContext,
  who: KeyManager,
  input: { name: string; scopes: readonly string[] },
): CreatedKey {
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
  };
  transaction(ctx.db, () => {
    if (activeApiKeyByName(ctx.db, who.account.id, name)) {
      throw new InvalidRequest([{
        parameter: "name",
        message: `an active key is already named "${name}"`,
      }]);
    }
    insertApiKey(ctx.db, { ...record, keyHash: hashToken(secret) });
  });
  ctx.log.info("api key created", { accountId: who.account.id, keyId: record.id, scopes });
  return { key: view({ ...record, lastUsedAt: null, revokedAt: null }), secret };
}

/**
 * The account's active keys (metadata only), newest first. Keys and tokens calling the API
 * need the account on Pro or above; signed-in people always see their keys (to revoke them).
 */
export function listKeys(ctx: AppContext, who: Principal | KeyManager): KeyView[] {
  if (who.kind === "anonymous") throw new Unauthorized();
  if (
    (who.kind === "api_key" || who.kind === "oauth") && !planAtLeast(who.account.plan, KEY_PLAN)
  ) {
    throw new PlanRequired(KEY_PLAN, "Managing API keys");
  }
  return listApiKeys(ctx.db, who.account.id).map(view);
}

function assertMayRevoke(who: KeyManager): void {
  if (who.kind === "session" && who.member.role === "MEMBER") {
    throw new Forbidden("Only account owners and admins can revoke API keys.");
  }
}

/**
 * Revokes one of the account's keys at once and for good. Allowed on any plan, so a
 * downgraded account can still shut its keys off. Revoking a revoked key changes nothing.
 */
export function revokeKey(ctx: AppContext, who: KeyManager, keyId: string): KeyView {
  assertMayRevoke(who);
  const found = apiKeyById(ctx.db, who.account.id, keyId);
  if (!found) throw new NotFound("API key", keyId);
  if (revokeApiKey(ctx.db, who.account.id, keyId, ctx.clock.now())) {
    ctx.log.info("api key revoked", { accountId: who.account.id, keyId });
  }
  return view(apiKeyById(ctx.db, who.account.id, keyId)!);
}

/** Revokes the account's active key with that name (admin command). */
export function revokeKeyByName(ctx: AppContext, who: KeyManager, name: string): KeyView {
  const found = activeApiKeyByName(ctx.db, who.account.id, name);
  if (!found) throw new NotFound("active API key named", name);
  return revokeKey(ctx, who, found.id);
}

/** True when the text looks like one of our keys (it may still be unknown or revoked). */
export function looksLikeKey(credential: string): boolean {
  return credential.startsWith(KEY_PREFIX);
}

/**
 * Verifies a presented key: malformed, unknown or revoked → Unauthorized; otherwise the
 * key's principal with the account as stored now. Records the use off the request's path.
 */
export function authenticateKey(ctx: AppContext, credential: string): Principal {
  if (!KEY_SHAPE.test(credential)) throw new Unauthorized("Malformed API key");
  const hash = hashToken(credential);
  const found = apiKeyByHash(ctx.db, hash);
  if (!found || !sameText(found.keyHash, hash)) throw new Unauthorized("Unknown API key");
  if (found.revokedAt !== null) throw new Unauthorized("This API key has been revoked");
  const account = accountById(ctx.db, found.accountId);
  if (!account) throw new Unauthorized("Unknown API key");
  noteUse(ctx, found, ctx.clock.now());
  return { kind: "api_key", account, keyId: found.id, scopes: effectiveScopes(found.scopes) };
}

/** Key uses waiting to be written, per database. */
const pending = new WeakMap<Db, Map<string, number>>();

/** Queues a `last used` update, at most once a minute per key, written after the response. */
function noteUse(ctx: AppContext, key: ApiKeyRecord, now: number): void {
  if (key.lastUsedAt !== null && now - key.lastUsedAt < MINUTE_MS) return;
  let batch = pending.get(ctx.db);
  if (!batch) {
    batch = new Map();
    pending.set(ctx.db, batch);
    setTimeout(() => flushKeyUses(ctx), 0);
  }
  if (!batch.has(key.id)) batch.set(key.id, now);
}

/** Writes queued key uses in one transaction (runs on its own; exported for shutdown). */
export function flushKeyUses(ctx: AppContext): void {
  const batch = pending.get(ctx.db);
  pending.delete(ctx.db);
  if (!batch?.size) return;
  try {
    transaction(ctx.db, () => touchApiKeys(ctx.db, batch));
  } catch (err) {
    ctx.log.warn("could not record API-key use", { error: String(err) });
  }
}
