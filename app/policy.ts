/**
 * Who may do what: one declaration per operation ({@link Access}: the credential it needs, the
 * scopes a key or token must hold, the plan its account must be on) and one function that
 * enforces it, {@link authorize}. Verbs call it themselves, so REST, MCP, the web pages and
 * the admin commands cannot disagree; REST reads the same declarations to write
 * `x-required-scopes` and `security` into OpenAPI (routes/api/define.ts), and checks them with
 * this function before a cached answer is served.
 * @module
 */
import {
  type Account,
  ALL_SCOPES,
  Forbidden,
  holdsScope,
  InsufficientScope,
  type Plan,
  planAtLeast,
  PlanRequired,
  type Principal,
  type Role,
  ROLES,
  type Scope,
  Unauthorized,
} from "../domain/mod.ts";

/**
 * Who may call: `open` (anyone; a presented credential is still authenticated, never
 * required), `optional` (anonymous callers allowed; a key or token must hold the scopes) or
 * `key` (a key or token holding the scopes is required).
 */
export type Credential = "open" | "optional" | "key";

/** What an operation requires. */
export interface Access {
  readonly credential: Credential;
  readonly scopes: readonly Scope[];
  /**
   * The plan the caller's account must be on, and what to call the operation when it is not.
   * Required of API keys and OAuth tokens; signed-in people reach their own settings on any
   * plan (the verbs behind them say what the plan allows).
   */
  readonly plan?: { readonly plan: Plan; readonly feature: string };
  /**
   * The least role a signed-in person must hold (`ROLES` order: OWNER, ADMIN, MEMBER), and the
   * refusal a lesser one gets (403). Keys and tokens are bounded by their scopes instead.
   */
  readonly role?: { readonly least: Role; readonly refusal: string };
}

/** The self-hoster at `statusd admin`: acts on any account, needs no scope. */
export interface AdminCaller {
  readonly kind: "admin";
  readonly account: Account;
}

/** Anyone a verb may act for. */
export type Caller = Principal | AdminCaller;

/** Anyone, no scope: public reads. */
export const OPEN: Access = { credential: "open", scopes: [] };

/** Plan an account needs to use MCP (and to connect MCP clients). */
export const MCP_PLAN: Plan = "PRO";

/** Who may call `/api/mcp`. */
export const USE_MCP: Access = {
  credential: "key",
  scopes: ["mcp:invoke"],
  plan: { plan: MCP_PLAN, feature: "MCP access" },
};

/**
 * Which scopes a credential acting for a member of each role may hold: what OAuth consent may
 * grant, and what a token or key is allowed at each use (bounded by the current role of the
 * member who approved or made it). Members read; owners and admins also change.
 */
export const ROLE_SCOPES: Readonly<Record<Role, readonly Scope[]>> = {
  OWNER: ALL_SCOPES,
  ADMIN: ALL_SCOPES,
  MEMBER: ALL_SCOPES.filter((s) => s !== "monitors:write" && s !== "alerts:write"),
};

/**
 * Of `scopes`, those a member of `role` may hold (all of them for a credential no member
 * stands behind: one the self-hoster made with `statusd admin`).
 */
export function scopesFor(role: Role | null, scopes: readonly Scope[]): Scope[] {
  return role === null ? [...scopes] : scopes.filter((s) => ROLE_SCOPES[role].includes(s));
}

/**
 * True when a signed-in person of `role` may perform an operation declared `access` (what a
 * page shows or hides; {@link authorize} enforces it).
 */
export function roleAllows(role: Role, access: Access): boolean {
  return !access.role || ROLES.indexOf(role) <= ROLES.indexOf(access.role.least);
}

/**
 * Throws when `who` may not perform an operation declared `access`: `Unauthorized` (no
 * credential where one is needed), `InsufficientScope` (the first scope a key or token lacks),
 * `PlanRequired` (a key or token of an account below the plan), `Forbidden` (a signed-in
 * person below the role).
 */
export function authorize(who: Caller, access: Access): void {
  if (who.kind === "admin") return;
  if (who.kind === "anonymous") {
    if (access.credential === "key") throw new Unauthorized();
    return;
  }
  if (access.credential !== "open") {
    for (const scope of access.scopes) {
      if (!holdsScope(who, scope)) throw new InsufficientScope(scope);
    }
  }
  if (
    access.plan && (who.kind === "api_key" || who.kind === "oauth") &&
    !planAtLeast(who.account.plan, access.plan.plan)
  ) {
    throw new PlanRequired(access.plan.plan, access.plan.feature);
  }
  if (access.role && who.kind === "session" && !roleAllows(who.member.role, access)) {
    throw new Forbidden(access.role.refusal);
  }
}

/**
 * The account `who` acts on, once {@link authorize}d for `access`; anonymous callers are
 * refused (the account-owned verbs have no public side).
 */
export function callerAccount(who: Caller, access: Access): Account {
  authorize(who, access);
  if (who.kind === "anonymous") throw new Forbidden();
  return who.account;
}
